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
import { pathOf, postSigned } from '../support/signer-forms.js';

/**
 * ADR 3600 against real Postgres, through the service's HTTP: an HTML template's text field
 * that asks for a kind of value keeps it, refuses a pre-filled value of another kind at its
 * path, and refuses the signer's, beside the field and in their language.
 */
describe('requests service: text fields that ask for a kind of value (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;
  let template: number;

  before(async () => {
    h = await startHarness('text_validation');
    headers = await principal();
    template = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({
        fields: [
          { name: 'zip', type: 'text', validation: 'zip_code' },
          { name: 'phone', type: 'text', max_length: 20, validation: 'phone_number' },
        ],
      }),
    );
  });
  after(() => h.close());

  const body = (zip: Record<string, unknown> = {}) => ({
    contracts: [template],
    signers: [{ signer_id: 'signer@example.com', locale: 'de' }],
    fields: [
      { name: 'zip', assigned_to: 'signer@example.com', ...zip },
      { name: 'phone', assigned_to: 'signer@example.com' },
    ],
    render_data: { client_name: 'Client', start_date: '2030-01-01' },
  });

  it('is declared on a text field only and shown as declared', async () => {
    const shown = await h.http.get(`/v1.1/contracts/${template}`).set(headers).expect(200);
    assert.deepEqual((shown.body as { fields: unknown[] }).fields, [
      { name: 'zip', type: 'text', validation: 'zip_code' },
      { name: 'phone', type: 'text', max_length: 20, validation: 'phone_number' },
    ]);
    const refused = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send(htmlTemplateBody({ fields: [{ name: 'ok', type: 'checkbox', validation: 'zip_code' }] }))
      .expect(422);
    const unknown = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send(htmlTemplateBody({ fields: [{ name: 'ok', type: 'text', validation: 'postcode' }] }))
      .expect(422);
    assert.deepEqual(
      [refused, unknown].map((r) => (r.body as { errors: { path: string }[] }).errors.map((e) => e.path)),
      [['fields[0].validation'], ['fields[0].validation']],
    );
  });

  it('refuses a pre-filled value of another kind at its path, storing nothing', async () => {
    const refused = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send(body({ default_value: 'SW1A 1AA' }))
      .expect(422);
    const errors = (refused.body as { errors: { path: string; message: string }[] }).errors;
    assert.deepEqual(
      errors.map((e) => [e.path, e.message]),
      [
        [
          'fields[0].default_value',
          'must be a ZIP code, like 12345 or 12345-6789: text field "zip" asks for zip_code',
        ],
      ],
    );
    const listed = await h.http.get(`/v1.1/sites/${SITE_A.id}/requests`).set(headers).expect(200);
    assert.equal((listed.body as { total_count: number }).total_count, 0, 'nothing created');
  });

  it('brings up the right keyboard, refuses the signer’s value of another kind in their language, and keeps a good one', async () => {
    const made = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send(body({ default_value: '12345' }))
      .expect(201);
    const view = made.body as RequestView;
    const sent = (await h.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200))
      .body as RequestView;
    const path = pathOf(sent.signers[0]!.request_url);
    const page = await h.http.get(path).expect(200);
    assert.match(
      page.text,
      /<p class="hint" id="f-0-hint">Eine US-Postleitzahl \(ZIP\), z\. B\. 12345 oder 12345-6789<\/p>/,
    );
    assert.match(
      page.text,
      /<input type="text" id="f-0" name="f0" value="12345" maxlength="\d+" inputmode="numeric" required aria-describedby="f-0-hint">/,
    );
    assert.match(
      page.text,
      /<input type="tel" id="f-1" name="f1" value="" maxlength="20" required aria-describedby="f-1-hint">/,
    );
    const sign = (phone: string) => postSigned(h.http, page.text, { f0: '12345', f1: phone });
    const refused = await sign('555-014');
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Phone: muss eine 10-stellige Telefonnummer sein, z\. B\. 555-014-3000/);
    assert.match(
      refused.text,
      /id="f-1" name="f1" value="555-014" maxlength="20" required aria-invalid="true" aria-describedby="f-1-error f-1-hint">/,
    );
    assert.equal((await sign('(555) 014-3000')).status, 303);
    const done = (await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200)).body as RequestView;
    assert.equal(done.state, 'completed');
  });

  /**
   * The signing page, in `locale`, of a Request sent with a new template `name` whose text
   * fields ask for `kinds` (by field name), each assigned to its one signer.
   */
  const pageAsking = async (name: string, kinds: Record<string, string>, locale: string) => {
    const names = Object.keys(kinds);
    const asking = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({
        name,
        fields: names.map((field) => ({ name: field, type: 'text', validation: kinds[field] })),
      }),
    );
    const made = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [asking],
        signers: [{ signer_id: 'signer@example.com', locale }],
        fields: names.map((field) => ({ name: field, assigned_to: 'signer@example.com' })),
        render_data: { client_name: 'Client', start_date: '2030-01-01' },
      })
      .expect(201);
    const view = made.body as RequestView;
    const sent = (await h.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200))
      .body as RequestView;
    return h.http.get(pathOf(sent.signers[0]!.request_url)).expect(200);
  };

  it('asks for letters only and a bank routing number whose check digit holds (ADR 3680)', async () => {
    const page = await pageAsking(
      'Direct deposit',
      { holder: 'letters_only', routing: 'bank_routing_number' },
      'es',
    );
    assert.match(page.text, /<p class="hint" id="f-0-hint">Solo letras, con espacios, guiones o apóstrofos/);
    assert.match(
      page.text,
      /<p class="hint" id="f-1-hint">Un número de ruta bancaria de EE\. UU\. de 9 dígitos/,
    );
    assert.match(page.text, /name="f1" value="" maxlength="\d+" inputmode="numeric"/);
    const sign = (holder: string, routing: string) =>
      postSigned(h.http, page.text, { f0: holder, f1: routing });
    const refused = await sign('R2D2', '021000022');
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Holder: debe contener solo letras/);
    assert.match(refused.text, /Routing: debe ser un número de ruta bancaria de EE\. UU\. de 9 dígitos/);
    assert.equal((await sign('José Núñez', '021000021')).status, 303);
  });

  it('asks for an IBAN as a code typed in capitals, and checks its digits in the signer’s language (ADR 3690)', async () => {
    const page = await pageAsking('Mandate', { iban: 'iban' }, 'fr');
    assert.match(
      page.text,
      /<p class="hint" id="f-0-hint">Un numéro de compte bancaire international \(IBAN\)/,
    );
    assert.match(
      page.text,
      /name="f0" value="" maxlength="\d+" autocapitalize="characters" spellcheck="false" required/,
    );
    const refused = await postSigned(h.http, page.text, { f0: 'DE88 3704 0044 0532 0130 00' });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Iban : doit être un IBAN, comme DE89 3704 0044 0532 0130 00/);
    assert.equal((await postSigned(h.http, page.text, { f0: 'de89 3704 0044 0532 0130 00' })).status, 303);
  });
});
