import assert from 'node:assert/strict';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { Locale } from '@esign/contracts';
import { pdfLibRenderer } from '../../src/adapters/pdf/pdf-lib-renderer.js';
import type { SignerAct } from '../../src/domain/signing.js';
import type { ExecutedDocument } from '../../src/ports/pdf-renderer.js';
import { pdfText } from '../support/pdf-text.js';

const act: SignerAct = {
  signerRef: 'ref-1',
  signerId: 'dora@example.com',
  contact: { email: 'dora@example.com', mobileNumber: null },
  kind: 'signed',
  at: '2030-01-02T10:00:00.000Z',
  ip: '1.2.3.4',
  userAgent: 'UA',
  documentSha256: '0'.repeat(64),
  typedName: 'Dora Schmidt',
  drawnSignature: null,
  values: {},
  reason: null,
  authentication: null,
};

/** A test-mode document in `locale`: an HTML contract with values and a signature, a PDF with a value it cannot hold. */
const executed = async (locale: Locale | undefined) => {
  // A form whose one field, a list, cannot take a tick: its value goes on a page after it.
  const form = await PDFDocument.create();
  form
    .getForm()
    .createDropdown('floor')
    .addToPage(form.addPage([300, 300]), { x: 20, y: 20 });
  const pdf = await form.save();
  const field = (name: string, type: 'text' | 'checkbox' | 'signature', value: string | boolean | null) => ({
    name,
    definition: type === 'text' ? { name, type, maxLength: null } : { name, type },
    value,
    signerId: 'dora@example.com',
    signature: type === 'signature' ? act : null,
  });
  const document: ExecutedDocument = {
    requestId: '00000000-0000-4000-8000-000000000001',
    siteName: 'Acme',
    ...(locale === undefined ? {} : { locale }),
    contracts: [
      {
        kind: 'html',
        id: 1,
        name: 'Mietvertrag',
        html: '<p>Die Wohnung wird vermietet.</p>',
        sha256: 'a'.repeat(64),
        fields: [
          field('city', 'text', 'Berlin'),
          field('pets', 'checkbox', true),
          field('smoker', 'checkbox', false),
          field('note', 'text', ''),
          field('signature', 'signature', null),
        ],
      },
      {
        kind: 'pdf',
        id: 2,
        name: 'Anlage',
        pdf,
        sha256: 'b'.repeat(64),
        fields: [field('floor', 'checkbox', true)],
      },
    ],
    signers: [{ signerId: 'dora@example.com', email: 'dora@example.com', mobileNumber: null, act }],
    documentSha256: 'c'.repeat(64),
    createdAt: '2030-01-01T09:00:00.000Z',
    sentAt: '2030-01-01T09:00:00.000Z',
    completedAt: '2030-01-02T10:00:00.000Z',
    testMode: true,
  };
  const bytes = await pdfLibRenderer.executed(document)();
  assert.ok(bytes._tag === 'Right');
  const read = await PDFDocument.load(bytes.right, { updateMetadata: false });
  return { title: read.getTitle(), subject: read.getSubject(), text: (await pdfText(bytes.right)).text };
};

/** ADR 3820: the contract pages in the document's language, as its cover and audit pages. */
describe('executed documents: the contract pages in the document’s language (ADR 3820)', function () {
  this.timeout(60_000); // the first document parses the fonts

  it('words the contract pages, the footer, the test mark and the title in German, and keeps what was recorded', async () => {
    const { title, subject, text } = await executed('de');
    for (const german of [
      'Vertrag 1 · SHA-256 des Inhalts aaaa',
      'Ausgefüllte Felder',
      'city: Berlin (dora@example.com)',
      'pets: Ja',
      'smoker: Nein',
      'note: (leer)',
      'Unterschriften',
      'signature · unterschrieben von dora@example.com am 2030-01-02T10:00:00.000Z',
      'Anlage: Werte',
      'Diese Werte ließen sich nicht in das Formular der PDF oben eintragen',
      'floor: Ja',
      'Anfrage 00000000-0000-4000-8000-000000000001 · Seite 1 von 5',
      'TEST — nicht rechtsverbindlich',
      'Prüfprotokoll',
    ])
      assert.ok(text.includes(german), `${german} in ${text}`);
    for (const english of [
      'Completed fields',
      'Signatures',
      'signed by',
      '(empty)',
      'Yes',
      'not legally binding',
    ])
      assert.ok(!text.includes(english), `${english} in ${text}`);
    assert.equal(title, 'Unterzeichnet: Mietvertrag, Anlage');
    assert.equal(
      subject,
      'Anfrage 00000000-0000-4000-8000-000000000001, abgeschlossen am 2030-01-02T10:00:00.000Z',
    );
  });

  it('words them in English without a language, as before', async () => {
    const { title, subject, text } = await executed(undefined);
    for (const english of [
      'Contract 1 · content SHA-256 aaaa',
      'Completed fields',
      'pets: Yes',
      'smoker: No',
      'note: (empty)',
      'signature · signed by dora@example.com on 2030-01-02T10:00:00.000Z',
      'Anlage: values',
      'Request 00000000-0000-4000-8000-000000000001 · page 1 of 5',
      'TEST — not legally binding',
    ])
      assert.ok(text.includes(english), `${english} in ${text}`);
    assert.equal(title, 'Executed: Mietvertrag, Anlage');
    assert.equal(subject, 'Request 00000000-0000-4000-8000-000000000001, completed 2030-01-02T10:00:00.000Z');
  });
});
