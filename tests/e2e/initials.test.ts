// Initials fields (ADR 3900) through the gateway and the typed client, against the whole
// system: declared, the signer's page asking for the initials once beside the name,
// refused when missing, written in every initials field of theirs, read back, and in the
// executed document.
import assert from 'node:assert/strict';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { clientOf, completedText, ok, publishedTemplate, unique, type ClientOf } from './support/flow.js';
import { filledSigningForm, postSignerForm } from './support/signer.js';
import { conformingFetch } from './support/conformance.js';

describe('end to end through the gateway: initials fields', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_initials' });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
  });

  it('asks for the initials once, writes them in every initials field of the signer, and shows them signed', async () => {
    const fields = [
      { name: 'initials_terms', type: 'initials' },
      { name: 'initials_privacy', type: 'initials' },
      { name: 'signature', type: 'signature' },
    ] as const;
    const template = await publishedTemplate(acme, {
      type: 'html',
      name: `Lease ${unique()}`,
      html: '<p>The terms, initialled.</p><p>The privacy notice, initialled.</p>',
      fields: [...fields],
    });
    assert.deepEqual(template.fields, fields, 'shown as declared');
    const email = `initials-${unique()}@example.com`;
    const body = (prefilled?: string) => ({
      contracts: [template.id],
      signers: [{ signer_id: email, send_to: { email: true } }],
      fields: fields.map((f) => ({
        name: f.name,
        assigned_to: email,
        ...(prefilled !== undefined && f.name === 'initials_terms' ? { default_value: prefilled } : {}),
      })),
    });
    const prefilled = await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
      params: { path: { site_id: acme.site } },
      body: body('JQC'),
    });
    assert.equal(prefilled.response.status, 422, 'initials are typed by their signer, not pre-filled');

    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: body(),
      }),
      201,
      'create',
    );
    const path = { request_id: created.id };
    const sent = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/send', { params: { path } }),
      200,
      'send',
    );
    const url = new URL(sent.signers[0]!.request_url);
    const page = await (await conformingFetch(url.href)).text();
    assert.match(page, /<label class="field" for="initials">Your initials<\/label>/);
    assert.match(
      page,
      /Written wherever the document asks for your initials: Initials terms, Initials privacy\./,
    );

    const form = filledSigningForm(page, 'Jane Quinn Carter');
    form.delete('initials');
    const missing = await postSignerForm(url, '/sign', form);
    assert.equal(missing.status, 422);
    assert.match(missing.page, /Your initials: type your initials/);
    form.set('initials', 'J.Q.C.');
    const signed = await postSignerForm(url, '/sign', form);
    assert.equal(signed.status, 303, signed.page.slice(0, 500));

    const values = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/field_values', { params: { path } }),
      200,
      'field values',
    );
    assert.deepEqual(
      values.data.filter((f) => f.type === 'initials').map((f) => [f.name, f.value]),
      [
        ['initials_terms', 'J.Q.C.'],
        ['initials_privacy', 'J.Q.C.'],
      ],
    );
    const text = await completedText(acme, created.id);
    assert.match(text, /J\.Q\.C\./, 'in the executed document');
  });
});
