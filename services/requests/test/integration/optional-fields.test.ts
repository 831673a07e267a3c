import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { downloaded } from '../support/executed-documents-fixture.js';
import { pdfText } from '../support/pdf-text.js';
import { pathOf, postSigned } from '../support/signer-forms.js';

/**
 * ADR 3610 against real Postgres, through the service's HTTP: an optional text field the
 * signer may leave empty, and a checkbox they must tick.
 */
describe('requests service: optional fields and checkboxes that must be ticked (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('optional_fields');
    headers = await principal();
  });
  after(() => h.close());

  it('refuses `required` on a signature at its path, storing nothing', async () => {
    const refused = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send(htmlTemplateBody({ fields: [{ name: 'signature', type: 'signature', required: false }] }))
      .expect(422);
    assert.deepEqual((refused.body as { errors: { path: string; message: string }[] }).errors, [
      {
        path: 'fields[0].required',
        message: 'is only allowed on a text, checkbox, choice, date or attachment field',
      },
    ]);
    const listed = await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts`).set(headers).expect(200);
    assert.equal((listed.body as { total_count: number }).total_count, 0, 'nothing created');
  });

  it('marks what must be filled in, lets the optional field be left empty, and refuses an unticked box', async () => {
    const id = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({
        name: 'Terms',
        fields: [
          { name: 'note', type: 'text', required: false },
          { name: 'terms', type: 'checkbox', required: true },
          { name: 'signature', type: 'signature' },
        ],
      }),
    );
    const shown = await h.http.get(`/v1.1/contracts/${id}`).set(headers).expect(200);
    assert.deepEqual((shown.body as { fields: unknown[] }).fields, [
      { name: 'note', type: 'text', required: false },
      { name: 'terms', type: 'checkbox', required: true },
      { name: 'signature', type: 'signature' },
    ]);
    const made = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [id],
        signers: [{ signer_id: 'signer@example.com' }],
        fields: [
          { name: 'note', assigned_to: 'signer@example.com', default_value: 'pre-filled' },
          { name: 'terms', assigned_to: 'signer@example.com' },
          { name: 'signature', assigned_to: 'signer@example.com' },
        ],
        render_data: { client_name: 'Client', start_date: '2030-01-01' },
      })
      .expect(201);
    const view = made.body as RequestView;
    const sent = (await h.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200))
      .body as RequestView;
    const page = await h.http.get(pathOf(sent.signers[0]!.request_url)).expect(200);
    assert.match(
      page.text,
      /<label class="field" for="f-0">Note<\/label><input type="text" id="f-0" name="f0" value="pre-filled" maxlength="\d+">/,
    );
    assert.match(
      page.text,
      /<input type="checkbox" id="f-1" name="f1" value="on" required><label for="f-1">Terms <span class="req">\(required\)<\/span><\/label>/,
    );
    const sign = (values: Record<string, string>) => postSigned(h.http, page.text, values);
    const refused = await sign({ f0: '' });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Terms: must be ticked to sign/);
    assert.equal((await sign({ f0: '', f1: 'on' })).status, 303);
    const done = (await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200)).body as RequestView;
    assert.equal(done.state, 'completed');
    const { text } = await pdfText(await downloaded(h, headers, view.id));
    const flat = text.replace(/\s+/g, ' ');
    assert.ok(flat.includes('note: (empty) (signer@example.com)'), 'cleared, not the pre-filled value');
    assert.ok(flat.includes('terms: Yes (signer@example.com)'), flat);
  });
});
