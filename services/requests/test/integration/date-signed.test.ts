import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { downloaded, signsAs } from '../support/executed-documents-fixture.js';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';
import { pathOf, postSigned } from '../support/signer-forms.js';

/**
 * ADRs 3570 and 3580 against real Postgres, through the service's HTTP: an HTML template's
 * `date_signed` field, never typed, holds the date its signer signed on; its `date` field is
 * picked by the signer.
 */
describe('requests service: date fields, signed on and picked (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;
  let template: number;

  before(async () => {
    h = await startHarness('date_signed');
    headers = await principal();
    template = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({
        fields: [
          { name: 'full_name', type: 'text', max_length: 80 },
          { name: 'agree', type: 'checkbox' },
          { name: 'signed_on', type: 'date_signed' },
          { name: 'signature', type: 'signature' },
        ],
      }),
    );
  });
  after(() => h.close());

  const body = (signedOn: Record<string, unknown> = {}) => ({
    contracts: [template],
    signers: [{ signer_id: 'signer@example.com' }],
    fields: [
      { name: 'full_name', assigned_to: 'signer@example.com' },
      { name: 'agree', assigned_to: 'signer@example.com' },
      { name: 'signed_on', assigned_to: 'signer@example.com', ...signedOn },
      { name: 'signature', assigned_to: 'signer@example.com' },
    ],
    render_data: { client_name: 'Client', start_date: '2030-01-01' },
  });

  it('is declared with its type, and refuses a pre-filled value at its path, storing nothing', async () => {
    const shown = await h.http.get(`/v1.1/contracts/${template}`).set(headers).expect(200);
    assert.deepEqual((shown.body as { fields: unknown[] }).fields[2], {
      name: 'signed_on',
      type: 'date_signed',
    });
    const refused = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send(body({ default_value: '2030-01-01' }))
      .expect(422);
    const errors = (refused.body as { errors: { path: string; message: string }[] }).errors;
    assert.deepEqual(
      errors.map((e) => e.path),
      ['fields[2].default_value'],
    );
    assert.match(errors[0]!.message, /the date its signer signs on/);
    const listed = await h.http.get(`/v1.1/sites/${SITE_A.id}/requests`).set(headers).expect(200);
    assert.equal((listed.body as { total_count: number }).total_count, 0, 'nothing created');
  });

  it('is not asked on the signer’s page, and holds the date they signed on in the executed document', async () => {
    const made = await h.http.post(`/v1.1/sites/${SITE_A.id}/requests`).set(headers).send(body()).expect(201);
    const view = made.body as RequestView;
    await h.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200);
    const url = (await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200)).body as RequestView;
    const page = await h.http.get(pathOf(url.signers[0]!.request_url)).expect(200);
    assert.match(page.text, /<p class="hint dated">Signed on: filled in with the date you sign on \(UTC/);
    assert.doesNotMatch(page.text, /name="f2"/, 'no input for it');

    await signsAs(h, url.signers[0]!.request_url, 'Sam Signer');
    const signed = (await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200))
      .body as RequestView;
    const day = String(signed.signers[0]!.signed_at).slice(0, 10);
    const { text } = await pdfText(await downloaded(h, headers, view.id));
    assert.ok(text.replace(/\s+/g, ' ').includes(`signed_on: ${day} (signer@example.com)`), text);
  });

  it('asks a date field’s signer with a date picker, refuses what is not a date, and keeps the one picked', async () => {
    const dated = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({ name: 'Start', fields: [{ name: 'start_on', type: 'date' }] }),
    );
    const made = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [dated],
        signers: [{ signer_id: 'signer@example.com' }],
        fields: [{ name: 'start_on', assigned_to: 'signer@example.com', default_value: '2030-02-01' }],
        render_data: { client_name: 'Client', start_date: '2030-01-01' },
      })
      .expect(201);
    const view = made.body as RequestView;
    const sent = (await h.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200))
      .body as RequestView;
    const path = pathOf(sent.signers[0]!.request_url);
    const sign = async (start: string) =>
      postSigned(h.http, (await h.http.get(path).expect(200)).text, { f0: start });
    const page = await h.http.get(path).expect(200);
    assert.match(page.text, /<input type="date" id="f-0" name="f0" value="2030-02-01" required>/);
    const refused = await sign('01/02/2030');
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Start on: must be a date, like 2030-01-31/);
    assert.equal((await sign('2030-03-04')).status, 303);
    const { text } = await pdfText(await downloaded(h, headers, view.id));
    assert.ok(text.replace(/\s+/g, ' ').includes('start_on: 2030-03-04 (signer@example.com)'), text);
  });

  it('keeps a date field’s bounds, refuses a pre-filled date after the latest, and a signer’s date before today (ADR 3620)', async () => {
    const bounded = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({
        name: 'Bounded',
        fields: [{ name: 'start_on', type: 'date', earliest: 'today', latest: '2099-12-31' }],
      }),
    );
    const shown = await h.http.get(`/v1.1/contracts/${bounded}`).set(headers).expect(200);
    assert.deepEqual((shown.body as { fields: unknown[] }).fields, [
      { name: 'start_on', type: 'date', earliest: 'today', latest: '2099-12-31' },
    ]);
    const create = (start: string) =>
      h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [bounded],
          signers: [{ signer_id: 'signer@example.com' }],
          fields: [{ name: 'start_on', assigned_to: 'signer@example.com', default_value: start }],
          render_data: { client_name: 'Client', start_date: '2030-01-01' },
        });
    const refused = await create('2100-01-01').expect(422);
    assert.deepEqual(
      (refused.body as { errors: { path: string; message: string }[] }).errors.map((e) => [
        e.path,
        e.message,
      ]),
      [['fields[0].default_value', 'must be on or before 2099-12-31: the bounds of date field "start_on"']],
    );
    const view = (await create('2099-12-31').expect(201)).body as RequestView;
    const sent = (await h.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200))
      .body as RequestView;
    const path = pathOf(sent.signers[0]!.request_url);
    const page = await h.http.get(path).expect(200);
    assert.match(
      page.text,
      /<input type="date" id="f-0" name="f0" value="2099-12-31" min="\d{4}-\d{2}-\d{2}" max="2099-12-31" required>/,
    );
    const sign = (start: string) => postSigned(h.http, page.text, { f0: start });
    const early = await sign('2000-01-01');
    assert.equal(early.status, 422);
    assert.match(early.text, /Start on: must be on or after \d{4}-\d{2}-\d{2}/);
    assert.equal((await sign('2099-12-31')).status, 303);
  });
});
