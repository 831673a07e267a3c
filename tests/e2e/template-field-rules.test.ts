// A template's field rules through the gateway and the typed client, against the whole
// system: a text field asking for a kind of value (ADR 3600), an optional field and a
// checkbox that must be ticked (ADR 3610), a text field's minimum (ADR 3660), a date's bounds moved from the signer's day
// (ADRs 3620, 3650), declared, shown as the OpenAPI document says, enforced on a
// pre-filled value and on the signer's form; and the same rules on a PDF's own fields (ADR 3670),
// one asked for only while its checkbox is ticked (ADR 3710), and read back (ADR 3730); a
// field asked for while any of several conditions holds (ADR 3850).
import assert from 'node:assert/strict';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { Schemas } from '@esign/client';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { clientOf, ok, unique, type ClientOf } from './support/flow.js';
import { filledSigningForm, postSignerForm } from './support/signer.js';
import { conformingFetch } from './support/conformance.js';

describe('end to end through the gateway: a template’s field rules', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_field_rules' });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
  });

  /** Creates the Request `body` describes and sends it: its path, and its one signer's link and page. */
  const sentAndOpened = async (body: Schemas['CreateRequestBody']) => {
    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body,
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
    return { path, url, page: await (await conformingFetch(url.href)).text() };
  };

  it('keeps the rules, refuses a pre-filled value that breaks one, and signs only when the form keeps them', async () => {
    const fields = [
      { name: 'phone', type: 'text', validation: 'phone_number' },
      { name: 'note', type: 'text', required: false, min_length: 3 },
      { name: 'terms', type: 'checkbox', required: true },
      { name: 'start_on', type: 'date', earliest: 'today+1', latest: 'today+30' },
      { name: 'signature', type: 'signature' },
    ] as const;
    const template = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/contracts', {
        params: { path: { site_id: acme.site } },
        body: {
          type: 'html',
          name: `Contact ${unique()}`,
          html: '<p>Contact details</p>',
          fields: [...fields],
        },
      }),
      201,
      'create template',
    );
    assert.deepEqual(template.fields, fields, 'shown as declared');
    ok(
      await acme.esign.POST('/v1.1/contracts/{contract_id}/publish', {
        params: { path: { contract_id: template.id } },
      }),
      200,
      'publish',
    );
    const email = `rules-${unique()}@example.com`;
    const body = (phone: string) => ({
      contracts: [template.id],
      signers: [{ signer_id: email, send_to: { email: true } }],
      fields: [
        { name: 'phone', assigned_to: email, default_value: phone },
        ...['note', 'terms', 'start_on', 'signature'].map((name) => ({ name, assigned_to: email })),
      ],
    });
    const refused = await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
      params: { path: { site_id: acme.site } },
      body: body('call me'),
    });
    assert.equal(refused.response.status, 422);
    assert.deepEqual(
      (refused.error as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['fields[0].default_value'],
    );

    const { path, url, page } = await sentAndOpened(body('555-014-3000'));
    const form = filledSigningForm(page, 'Rae Rules');
    form.set('f0', '555-0143');
    form.set('f1', 'ok');
    form.delete('f2');
    // Days from now, far enough from the bounds that the service's day may differ by one.
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    form.set('f3', day(-5));
    const wrong = await postSignerForm(url, '/sign', form);
    assert.equal(wrong.status, 422);
    assert.match(wrong.page, /Phone: must be a 10-digit phone number, like 555-014-3000/);
    assert.match(wrong.page, /Terms: must be ticked to sign/);
    assert.match(wrong.page, /Note: must be at least 3 characters/, 'a minimum (ADR 3660)');
    assert.match(wrong.page, /Start on: must be on or after \d{4}-\d{2}-\d{2}/);
    assert.match(
      wrong.page,
      /<input type="date" id="f-3" name="f3" value="[^"]*" min="\d{4}-\d{2}-\d{2}" max="/,
    );
    form.set('f0', '(555) 014-3000');
    form.set('f1', '');
    form.set('f2', 'on');
    form.set('f3', day(10));
    const signed = await postSignerForm(url, '/sign', form);
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    const done = ok(await acme.esign.GET('/v1.1/requests/{request_id}', { params: { path } }), 200, 'read');
    assert.equal(done.state, 'completed');
  });

  it('gives a PDF’s own text fields the rules of a date picked and the date signed', async () => {
    const document = await PDFDocument.create();
    const sheet = document.addPage();
    for (const [i, name] of ['start_on', 'signed_on'].entries())
      document
        .getForm()
        .createTextField(name)
        .addToPage(sheet, { x: 50, y: 700 - 50 * i });
    const pdf = Buffer.from(await document.save()).toString('base64');
    const template = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/contracts', {
        params: { path: { site_id: acme.site } },
        body: {
          type: 'pdf',
          name: `Lease ${unique()}`,
          pdf,
          fields: [
            { name: 'signed_on', type: 'date_signed' },
            { name: 'start_on', type: 'date', earliest: '2030-01-01' },
          ],
        },
      }),
      201,
      'create PDF template',
    );
    assert.deepEqual(template.fields, [
      { name: 'start_on', type: 'date', earliest: '2030-01-01' },
      { name: 'signed_on', type: 'date_signed' },
    ]);
    ok(
      await acme.esign.POST('/v1.1/contracts/{contract_id}/publish', {
        params: { path: { contract_id: template.id } },
      }),
      200,
      'publish',
    );
    const email = `pdf-rules-${unique()}@example.com`;
    const { url, page } = await sentAndOpened({
      contracts: [template.id],
      signers: [{ signer_id: email, send_to: { email: true } }],
      fields: ['start_on', 'signed_on'].map((name) => ({ name, assigned_to: email })),
    });
    assert.match(page, /<input type="date" id="f-0" name="f0" value="" min="2030-01-01" required>/);
    assert.doesNotMatch(page, /name="f1"/, 'the date signed is not asked');
    const form = filledSigningForm(page, 'Pat Pdf');
    form.set('f0', '2029-12-31');
    const early = await postSignerForm(url, '/sign', form);
    assert.equal(early.status, 422);
    assert.match(early.page, /must be on or after 2030-01-01/);
    form.set('f0', '2030-06-01');
    const signed = await postSignerForm(url, '/sign', form);
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
  });

  it('asks for a PDF’s text field only while its own checkbox is ticked (ADR 3710)', async () => {
    const document = await PDFDocument.create();
    const sheet = document.addPage();
    document.getForm().createCheckBox('married').addToPage(sheet, { x: 50, y: 700 });
    document.getForm().createTextField('spouse').addToPage(sheet, { x: 50, y: 650 });
    const template = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/contracts', {
        params: { path: { site_id: acme.site } },
        body: {
          type: 'pdf',
          name: `Household ${unique()}`,
          pdf: Buffer.from(await document.save()).toString('base64'),
          fields: [{ name: 'spouse', type: 'text', shown_if: { field: 'married' } }],
        },
      }),
      201,
      'create PDF template',
    );
    assert.deepEqual(template.fields, [
      { name: 'married', type: 'checkbox' },
      { name: 'spouse', type: 'text', shown_if: { field: 'married' } },
    ]);
    ok(
      await acme.esign.POST('/v1.1/contracts/{contract_id}/publish', {
        params: { path: { contract_id: template.id } },
      }),
      200,
      'publish',
    );
    const email = `pdf-if-${unique()}@example.com`;
    const { path, url, page } = await sentAndOpened({
      contracts: [template.id],
      signers: [{ signer_id: email, send_to: { email: true } }],
      fields: ['married', 'spouse'].map((name) => ({ name, assigned_to: email })),
    });
    assert.match(page, /<p class="hint">Asked only when “Married” is ticked\.<\/p>/);
    const form = filledSigningForm(page, 'Pat Pdf');
    form.set('f0', 'on');
    form.set('f1', '');
    const empty = await postSignerForm(url, '/sign', form);
    assert.equal(empty.status, 422);
    assert.match(empty.page, /Spouse: is required/);
    form.delete('f0');
    form.set('f1', 'Sam');
    const signed = await postSignerForm(url, '/sign', form);
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    // Read back as the executed document shows it (ADR 3730): not asked, so empty.
    const values = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/field_values', { params: { path } }),
      200,
      'field values',
    );
    assert.deepEqual(
      values.data.map((f) => [f.name, f.type, f.value]),
      [
        ['married', 'checkbox', false],
        ['spouse', 'text', ''],
      ],
    );
    // And across the template's sent Requests (ADR 3780), the same values.
    const across = ok(
      await acme.esign.GET('/v1.1/contracts/{contract_id}/field_values', {
        params: { path: { contract_id: template.id }, query: { state: 'completed' } },
      }),
      200,
      'the template’s field values',
    );
    assert.deepEqual(
      across.data.map((r) => [r.request_id, r.state, r.fields]),
      [[path.request_id, 'completed', values.data]],
    );
  });

  it('takes a list of conditions, any of which asks for a field, and refuses one at its path (ADR 3850)', async () => {
    const fields = (second: string): Schemas['DeclaredField'][] => [
      { name: 'married', type: 'checkbox' },
      { name: 'company', type: 'text', required: false },
      { name: 'contact', type: 'text', shown_if: [{ field: 'married' }, { field: second }] },
    ];
    const create = (second: string) =>
      acme.esign.POST('/v1.1/sites/{site_id}/contracts', {
        params: { path: { site_id: acme.site } },
        body: { type: 'html', name: `Either ${unique()}`, html: '<p>Either</p>', fields: fields(second) },
      });
    const refused = await create('nope');
    assert.equal(refused.response.status, 422);
    assert.deepEqual((refused.error as { errors: unknown[] }).errors, [
      { path: 'fields[2].shown_if[1].field', message: 'names no field of this template: "nope"' },
    ]);
    const template = ok(await create('company'), 201, 'create');
    assert.deepEqual(template.fields[2], fields('company')[2]);
    ok(
      await acme.esign.POST('/v1.1/contracts/{contract_id}/publish', {
        params: { path: { contract_id: template.id } },
      }),
      200,
      'publish',
    );
    const email = `either-${unique()}@example.com`;
    const { url, page } = await sentAndOpened({
      contracts: [template.id],
      signers: [{ signer_id: email, send_to: { email: true } }],
      fields: ['married', 'company', 'contact'].map((name) => ({ name, assigned_to: email })),
    });
    assert.match(
      page,
      /<p class="hint">Asked only when “Married” is ticked or “Company” is filled in\.<\/p>/,
    );
    const form = filledSigningForm(page, 'Eve Either');
    form.delete('f0');
    form.set('f1', 'Acme');
    form.set('f2', '');
    const empty = await postSignerForm(url, '/sign', form);
    assert.equal(empty.status, 422);
    assert.match(empty.page, /Contact: is required/);
  });
});
