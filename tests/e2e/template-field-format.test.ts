// A text field written in a format (ADR 3870) through the gateway and the typed client,
// against the whole system: declared and shown as the OpenAPI document says, refused
// beside a kind of value, enforced on a pre-filled value and on the signer's form, which
// tells the signer the format before they type, and read back as they typed it.
import assert from 'node:assert/strict';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { clientOf, ok, publishedTemplate, unique, type ClientOf } from './support/flow.js';
import { filledSigningForm, postSignerForm } from './support/signer.js';
import { conformingFetch } from './support/conformance.js';

describe('end to end through the gateway: a text field’s format', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_field_format' });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
  });

  it('keeps the format, refuses a value written otherwise, and signs with one written as it says', async () => {
    const templates = async () =>
      ok(
        await acme.esign.GET('/v1.1/sites/{site_id}/contracts', { params: { path: { site_id: acme.site } } }),
        200,
        'list templates',
      ).total_count;
    const before = await templates();
    const refused = await acme.esign.POST('/v1.1/sites/{site_id}/contracts', {
      params: { path: { site_id: acme.site } },
      body: {
        type: 'html',
        name: `Plates ${unique()}`,
        html: '<p>Vehicle</p>',
        fields: [
          { name: 'plate', type: 'text', validation: 'numbers_only', format: '999' },
          { name: 'fleet', type: 'text', format: '---' },
        ],
      },
    });
    assert.equal(refused.response.status, 422);
    assert.deepEqual((refused.error as { errors: { path: string; message: string }[] }).errors, [
      {
        path: 'fields[1].format',
        message: 'must hold at least one 9 (a digit), A (a letter) or * (either), like AA-9999',
      },
    ]);
    const beside = await acme.esign.POST('/v1.1/sites/{site_id}/contracts', {
      params: { path: { site_id: acme.site } },
      body: {
        type: 'html',
        name: `Plates ${unique()}`,
        html: '<p>Vehicle</p>',
        fields: [{ name: 'plate', type: 'text', validation: 'numbers_only', format: '999' }],
      },
    });
    assert.deepEqual((beside.error as { errors: { path: string; message: string }[] }).errors, [
      {
        path: 'fields[0].format',
        message: 'must not be set with validation: a value is checked by one or the other',
      },
    ]);
    assert.equal(await templates(), before, 'nothing written');

    const fields = [
      { name: 'plate', type: 'text', format: 'AA-9999' },
      { name: 'signature', type: 'signature' },
    ] as const;
    const template = await publishedTemplate(acme, {
      type: 'html',
      name: `Plates ${unique()}`,
      html: '<p>Vehicle</p>',
      fields: [...fields],
    });
    assert.deepEqual(template.fields, fields, 'shown as declared');
    const email = `format-${unique()}@example.com`;
    const body = (plate: string) => ({
      contracts: [template.id],
      signers: [{ signer_id: email, send_to: { email: true } }],
      fields: [
        { name: 'plate', assigned_to: email, default_value: plate },
        { name: 'signature', assigned_to: email },
      ],
    });
    const prefilled = await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
      params: { path: { site_id: acme.site } },
      body: body('AB1234'),
    });
    assert.equal(prefilled.response.status, 422);
    assert.deepEqual((prefilled.error as { errors: { path: string; message: string }[] }).errors, [
      {
        path: 'fields[0].default_value',
        message: 'must be written as AA-9999: the format of text field "plate"',
      },
    ]);

    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: body('AB-1234'),
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
    assert.match(page, /Written as AA-9999, where 9 is a digit, A is a letter/);
    assert.match(page, /<input type="text" id="f-0" name="f0" value="AB-1234" maxlength="7"/);

    const form = filledSigningForm(page, 'Pat Plate');
    form.set('f0', 'AB 1234');
    const wrong = await postSignerForm(url, '/sign', form);
    assert.equal(wrong.status, 422);
    assert.match(wrong.page, /Plate: must be written as AA-9999/);
    form.set('f0', 'cd-0042');
    const signed = await postSignerForm(url, '/sign', form);
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    const values = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/field_values', { params: { path } }),
      200,
      'field values',
    );
    assert.equal(values.data.find((f) => f.name === 'plate')?.value, 'cd-0042', 'as typed');
  });
});
