// A draft template's name or fields changed without its document (ADR 3890), through the
// gateway and the typed client against the whole system: an HTML draft and a PDF draft,
// each checked as a PUT with the stored document would be, refusals changing nothing.
import assert from 'node:assert/strict';
import { PDFDocument } from '@cantoo/pdf-lib';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { clientOf, ok, unique, type ClientOf } from './support/flow.js';

describe('end to end through the gateway: a draft template patched', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_template_patch' });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
  });

  const read = async (contract_id: number) =>
    ok(
      await acme.esign.GET('/v1.1/contracts/{contract_id}', { params: { path: { contract_id } } }),
      200,
      'get',
    );
  const patch = (contract_id: number, body: Record<string, unknown>) =>
    acme.api.call('PATCH', `/v1.1/contracts/${contract_id}`, body);

  it('renames an HTML draft, or replaces its fields, keeping its text; refusals change nothing', async () => {
    const made = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/contracts', {
        params: { path: { site_id: acme.site } },
        body: {
          type: 'html',
          name: `Vehicle ${unique()}`,
          html: '<p>{{owner}} insures the vehicle.</p>',
          fields: [{ name: 'plate', type: 'text' }],
        },
      }),
      201,
      'create',
    );
    const fields = [
      { name: 'plate', type: 'text', format: 'AA-9999' },
      { name: 'signature', type: 'signature' },
    ];
    const changed = await patch(made.id, { fields });
    assert.equal(changed.status, 200, changed.text);
    const after = await read(made.id);
    assert.deepEqual(after.fields, fields);
    assert.deepEqual([after.name, after.html, after.tokens], [made.name, made.html, ['owner']]);

    const renamed = await patch(made.id, { name: 'Vehicle cover' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual([(await read(made.id)).name, (await read(made.id)).fields], ['Vehicle cover', fields]);

    const empty = await patch(made.id, {});
    assert.equal(empty.status, 422);
    assert.match(empty.text, /must name at least one of name, fields/);
    const wrong = await patch(made.id, { fields: [{ name: 'plate', type: 'text', format: '---' }] });
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /"path":"fields\[0\]\.format"/);
    assert.deepEqual((await read(made.id)).fields, fields, 'a refusal changed nothing');

    ok(
      await acme.esign.POST('/v1.1/contracts/{contract_id}/publish', {
        params: { path: { contract_id: made.id } },
      }),
      200,
      'publish',
    );
    const published = await patch(made.id, { name: 'Too late' });
    assert.equal(published.status, 409);
    assert.match(published.text, /template_published/);
  });

  it('gives a PDF draft’s own fields new rules from the file it keeps, and renames it keeping them', async () => {
    const document = await PDFDocument.create();
    const sheet = document.addPage();
    document.getForm().createTextField('tenant').addToPage(sheet, { x: 50, y: 700 });
    document.getForm().getTextField('tenant').setMaxLength(40);
    const pdf = Buffer.from(await document.save()).toString('base64');
    const made = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/contracts', {
        params: { path: { site_id: acme.site } },
        body: { type: 'pdf', name: `Lease ${unique()}`, pdf },
      }),
      201,
      'create',
    );
    assert.deepEqual(made.fields, [{ name: 'tenant', type: 'text', max_length: 40 }]);
    const etag = (await acme.api.call('GET', `/v1.1/contracts/${made.id}/document`)).headers.get('etag');
    assert.ok(etag);
    const ruled = await patch(made.id, { fields: [{ name: 'tenant', type: 'text', format: 'AA-9999' }] });
    assert.equal(ruled.status, 200, ruled.text);
    const expected = [{ name: 'tenant', type: 'text', max_length: 40, format: 'AA-9999' }];
    assert.deepEqual(
      (await read(made.id)).fields,
      expected,
      'the rule on the PDF’s own field, its limit kept',
    );
    const renamed = await patch(made.id, { name: 'Lease, 2031' });
    assert.equal(renamed.status, 200, renamed.text);
    const after = await read(made.id);
    assert.deepEqual([after.name, after.fields], ['Lease, 2031', expected], 'the rules kept');
    const file = await acme.api.call('GET', `/v1.1/contracts/${made.id}/document`);
    assert.equal(file.headers.get('etag'), etag, 'the file as uploaded');
    const unknown = await patch(made.id, { fields: [{ name: 'landlord', type: 'text' }] });
    assert.equal(unknown.status, 422);
    assert.match(unknown.text, /names no form field of the PDF: \\"landlord\\"/);
  });
});
