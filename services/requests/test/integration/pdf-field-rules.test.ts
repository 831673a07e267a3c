import assert from 'node:assert/strict';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { RequestView } from '@esign/contracts';
import { downloaded } from '../support/executed-documents-fixture.js';
import { countRows, principal, SITE_A, startHarness, type Harness } from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';
import { pathOf, postSigned } from '../support/signer-forms.js';

/** A lease as a PDF form: a tenant's name, a start date, the date signed and a pets checkbox. */
const leasePdf = async (): Promise<string> => {
  const document = await PDFDocument.create();
  const page = document.addPage();
  const form = document.getForm();
  const tenant = form.createTextField('tenant');
  tenant.setMaxLength(40);
  tenant.addToPage(page, { x: 50, y: 700 });
  form.createTextField('start').addToPage(page, { x: 50, y: 650 });
  form.createTextField('signed_on').addToPage(page, { x: 50, y: 600 });
  form.createCheckBox('pets').addToPage(page, { x: 50, y: 550 });
  return Buffer.from(await document.save()).toString('base64');
};

type Problem = { path: string; message: string };

/**
 * ADR 3670 against real Postgres, through the service's HTTP: a PDF template declares rules
 * for its own form fields, which its signers' pages and executed documents then keep.
 */
describe('requests service: rules declared for a PDF template’s fields (real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let headers: Record<string, string>;
  let pdf: string;
  const RULES = [
    { name: 'start', type: 'date', earliest: '2030-01-01' },
    { name: 'signed_on', type: 'date_signed' },
    { name: 'pets', type: 'checkbox', required: true },
    { name: 'tenant', type: 'text', min_length: 3 },
  ];

  before(async () => {
    h = await startHarness('pdf_field_rules');
    headers = await principal();
    pdf = await leasePdf();
  });
  after(() => h.close());

  const create = (fields: unknown[]) =>
    h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send({ type: 'pdf', name: 'Lease', pdf, fields });

  it('keeps the rules on the PDF’s fields, in the file’s order, and a draft’s PUT replaces them', async () => {
    const made = (await create(RULES).expect(201)).body as { id: number; fields: unknown[] };
    const expected = [
      { name: 'tenant', type: 'text', max_length: 40, min_length: 3 },
      { name: 'start', type: 'date', earliest: '2030-01-01' },
      { name: 'signed_on', type: 'date_signed' },
      { name: 'pets', type: 'checkbox', required: true },
    ];
    assert.deepEqual(made.fields, expected);
    const read = await h.http.get(`/v1.1/contracts/${made.id}`).set(headers).expect(200);
    assert.deepEqual((read.body as { fields: unknown[] }).fields, expected);
    const replaced = await h.http
      .put(`/v1.1/contracts/${made.id}`)
      .set(headers)
      .send({ type: 'pdf', name: 'Lease', pdf, fields: [{ name: 'tenant', type: 'text', max_length: 20 }] })
      .expect(200);
    assert.deepEqual((replaced.body as { fields: unknown[] }).fields, [
      { name: 'tenant', type: 'text', max_length: 20 },
      { name: 'start', type: 'text' },
      { name: 'signed_on', type: 'text' },
      { name: 'pets', type: 'checkbox' },
    ]);
  });

  it('refuses a rule the PDF’s field cannot take at its path, storing nothing', async () => {
    const before = await countRows(h.pool, 'contract_templates');
    const refused = await create([
      { name: 'landlord', type: 'text' },
      { name: 'pets', type: 'date' },
      { name: 'tenant', type: 'text', max_length: 50 },
    ]).expect(422);
    assert.deepEqual((refused.body as { errors: Problem[] }).errors, [
      { path: 'fields[0].name', message: 'names no form field of the PDF: "landlord"' },
      { path: 'fields[1].type', message: 'must be checkbox: the PDF\'s field "pets" is a checkbox' },
      { path: 'fields[2].max_length', message: "must not be more than the PDF field's own limit (40)" },
    ]);
    assert.equal(await countRows(h.pool, 'contract_templates'), before, 'nothing stored');
  });

  it('asks the signer by the rules, and fills the PDF with the date picked and the date signed', async () => {
    const made = (await create(RULES).expect(201)).body as { id: number };
    await h.http.post(`/v1.1/contracts/${made.id}/publish`).set(headers).expect(200);
    const signer = 'signer@example.com';
    const view = (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [made.id],
          signers: [{ signer_id: signer }],
          fields: ['tenant', 'start', 'signed_on', 'pets'].map((name) => ({ name, assigned_to: signer })),
        })
        .expect(201)
    ).body as RequestView;
    const sent = (await h.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200))
      .body as RequestView;
    const page = (await h.http.get(pathOf(sent.signers[0]!.request_url)).expect(200)).text;
    assert.match(page, /<input type="date" id="f-1" name="f1" value="" min="2030-01-01" required>/);
    assert.doesNotMatch(page, /name="f2"/, 'the date signed is not asked');
    assert.match(page, /minlength="3"/);
    const refused = await postSigned(h.http, page, { f0: 'Al', f1: '2029-12-31' });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /must be at least 3 characters/);
    assert.match(refused.text, /must be on or after 2030-01-01/);
    assert.match(refused.text, /must be ticked/);
    const signed = await postSigned(h.http, page, { f0: 'Alex Tenant', f1: '2030-02-01', f3: 'on' });
    assert.equal(signed.status, 303, signed.text.slice(0, 500));
    const done = (await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200)).body as RequestView;
    const day = String(done.signers[0]!.signed_at).slice(0, 10);
    const { text } = await pdfText(await downloaded(h, headers, view.id));
    const flat = text.replace(/\s+/g, ' ');
    // The PDF's own fields, filled and flattened: the name, the date picked, the date signed.
    assert.ok(flat.includes(`Alex Tenant 2030-02-01 ${day}`), flat);
  });
});
