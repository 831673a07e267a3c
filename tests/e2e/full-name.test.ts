// Full name fields (ADR 3910) through the gateway and the typed client, against the whole
// system: declared, named on the signer's page, refused as a pre-filled value, filled with
// the name the signer types to sign, read back, and in the executed document.
import assert from 'node:assert/strict';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { clientOf, completedText, ok, publishedTemplate, unique, type ClientOf } from './support/flow.js';
import { filledSigningForm, postSignerForm } from './support/signer.js';
import { conformingFetch } from './support/conformance.js';

describe('end to end through the gateway: full name fields', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_full_name' });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
  });

  it('names the field on the page, fills it with the typed signature, and shows it signed', async () => {
    const fields = [
      { name: 'printed_name', type: 'full_name' },
      { name: 'signature', type: 'signature' },
    ] as const;
    const template = await publishedTemplate(acme, {
      type: 'html',
      name: `Consent ${unique()}`,
      html: '<p>I consent to the terms above.</p>',
      fields: [...fields],
    });
    assert.deepEqual(template.fields, fields, 'shown as declared');
    const email = `full-name-${unique()}@example.com`;
    const body = (prefilled?: string) => ({
      contracts: [template.id],
      signers: [{ signer_id: email, send_to: { email: true } }],
      fields: fields.map((f) => ({
        name: f.name,
        assigned_to: email,
        ...(prefilled !== undefined && f.name === 'printed_name' ? { default_value: prefilled } : {}),
      })),
    });
    const prefilled = await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
      params: { path: { site_id: acme.site } },
      body: body('Someone Else'),
    });
    assert.equal(prefilled.response.status, 422, 'the name is its signer’s, not pre-filled');

    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: body(),
      }),
      201,
      'create',
    );
    const path = { request_id: created.id };
    const before = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/field_values', { params: { path } }),
      200,
      'field values before',
    );
    assert.equal(before.data.find((f) => f.name === 'printed_name')?.value, null, 'empty until signed');
    const sent = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/send', { params: { path } }),
      200,
      'send',
    );
    const url = new URL(sent.signers[0]!.request_url);
    const page = await (await conformingFetch(url.href)).text();
    assert.match(page, /Printed name: filled in with the name you type below to sign\./);
    assert.doesNotMatch(page, /name="f0"/, 'not an input of its own');

    const signed = await postSignerForm(url, '/sign', filledSigningForm(page, 'Jane Quinn Carter'));
    assert.equal(signed.status, 303, signed.page.slice(0, 500));

    const values = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/field_values', { params: { path } }),
      200,
      'field values',
    );
    assert.deepEqual(
      values.data.filter((f) => f.type === 'full_name').map((f) => [f.name, f.value]),
      [['printed_name', 'Jane Quinn Carter']],
    );
    const text = await completedText(acme, created.id);
    assert.match(text, /printed_name: Jane Quinn Carter/, 'among the completed fields');
  });
});
