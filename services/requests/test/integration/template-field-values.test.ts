import assert from 'node:assert/strict';
import type { RequestView, TemplateFieldValuesList } from '@esign/contracts';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { madeForOneSigner, ONE_SIGNER, sentAndOpened } from '../support/one-signer.js';
import { postSigned } from '../support/signer-forms.js';

/**
 * ADR 3780 against real Postgres, through the service's HTTP: what signers entered in one
 * template's fields, across the Requests made with it that were sent.
 */
describe('requests service: a template’s field values across its Requests (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('template_field_values');
    headers = await principal();
  });
  after(() => h.close());

  const FIELDS = [
    { name: 'full_name', type: 'text' },
    { name: 'married', type: 'checkbox' },
    { name: 'signature', type: 'signature' },
  ];
  const listed = async (template: number, query = '') =>
    (await h.http.get(`/v1.1/contracts/${template}/field_values${query}`).set(headers).expect(200))
      .body as TemplateFieldValuesList;

  it('answers each sent Request, newest first, with the template’s fields as the Request’s own read does', async () => {
    const template = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({ name: 'Intake', fields: FIELDS }),
    );
    const other = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({ name: 'Annex', fields: [{ name: 'reference', type: 'text' }] }),
    );
    await madeForOneSigner(h, headers, template, FIELDS); // a draft: never listed
    // The harness's clock stands still: each Request is made a second after the one before.
    h.clock.advance(1000);
    const signed = await madeForOneSigner(h, headers, template, FIELDS);
    h.clock.advance(1000);
    const page = await sentAndOpened(h, headers, signed);
    assert.equal((await postSigned(h.http, page, { f0: 'Sam Signer', f1: 'on' })).status, 303);
    // Sent with another contract too: only this template's fields are answered.
    const both = (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [other, template],
          title: 'Intake with annex',
          signers: [{ signer_id: ONE_SIGNER }],
          fields: [...FIELDS, { name: 'reference' }].map(({ name }) => ({
            name,
            assigned_to: ONE_SIGNER,
            ...(name === 'full_name' && { default_value: 'Pre Filled' }),
          })),
          render_data: { client_name: 'Client', start_date: '2030-01-01' },
        })
        .expect(201)
    ).body as RequestView;
    await h.http.post(`/v1.1/requests/${both.id}/send`).set(headers).expect(200);

    const all = await listed(template);
    assert.deepEqual(
      { total: all.total_count, count: all.count, more: all.has_more },
      { total: 2, count: 2, more: false },
    );
    const [newest, oldest] = all.data;
    assert.deepEqual(
      { id: newest!.request_id, title: newest!.title, state: newest!.state, completed: newest!.completed_at },
      { id: both.id, title: 'Intake with annex', state: 'sent', completed: null },
    );
    assert.match(newest!.sent_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.deepEqual(
      newest!.fields.map((f) => [f.name, f.value, f.filled_at]),
      [
        ['full_name', 'Pre Filled', null],
        ['married', null, null],
        ['signature', null, null],
      ],
    );
    // The signed one, exactly as its own read answers it.
    const own = (await h.http.get(`/v1.1/requests/${signed}/field_values`).set(headers).expect(200)).body as {
      data: unknown[];
    };
    assert.equal(oldest!.request_id, signed);
    assert.equal(oldest!.state, 'completed');
    assert.deepEqual(oldest!.fields, own.data);
    assert.deepEqual(
      oldest!.fields.map((f) => [f.name, f.value]),
      [
        ['full_name', 'Sam Signer'],
        ['married', true],
        ['signature', 'Sam'],
      ],
    );

    const completed = await listed(template, '?state=completed');
    assert.deepEqual(
      completed.data.map((r) => r.request_id),
      [signed],
    );
    const first = await listed(template, '?per_page=1');
    assert.deepEqual([first.data[0]!.request_id, first.has_more, first.total_count], [both.id, true, 2]);
  });

  it('refuses a draft’s state, and finds no template of a Site the caller does not reach', async () => {
    const template = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({ name: 'Scoped', fields: FIELDS }),
    );
    const refused = await h.http
      .get(`/v1.1/contracts/${template}/field_values?state=draft`)
      .set(headers)
      .expect(400);
    assert.deepEqual(
      (refused.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['state'],
    );
    await h.http
      .get(`/v1.1/contracts/${template}/field_values`)
      .set(await principal([SITE_B]))
      .expect(404);
  });
});
