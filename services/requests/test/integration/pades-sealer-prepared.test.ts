import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import * as E from 'fp-ts/lib/Either.js';
import type { DocumentSealer, SealDetails } from '../../src/ports/document-sealer.js';
import { pdfsig } from '../support/executed-documents-fixture.js';
import { testSealer } from '../support/seal.js';

const { subtle } = webcrypto;
const realImportKey = subtle.importKey.bind(subtle) as (...args: unknown[]) => Promise<unknown>;

/** A one-page PDF saved as the renderer saves it. */
const pdfOf = async (text: string) => {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 14 });
  return doc.save({ useObjectStreams: false });
};

/** A new document with `text` on it, sealed: the sealed bytes. */
const sealOf = async (sealer: DocumentSealer, text: string, details: SealDetails) => {
  const result = await sealer.seal(await pdfOf(text), details)();
  assert.ok(E.isRight(result));
  return result.right.pdf;
};

/** The seal's key and certificate chain are made once per sealer, not per document (ADR 2960). */
describe('PAdES sealer: one key import per sealer, each seal valid', function () {
  this.timeout(60_000);
  let dir: string;
  let imports: number;
  let failNext: boolean;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pades-prepared-'));
    // Counts (and can fail) the sealer's WebCrypto key imports; the real import does the work.
    subtle.importKey = ((...args: unknown[]) => {
      imports += 1;
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('the key store is not there'));
      }
      return realImportKey(...args);
    }) as typeof subtle.importKey;
  });
  beforeEach(() => {
    imports = 0;
    failNext = false;
  });
  after(async () => {
    // The stand-in is the object's own property; the prototype's method was never touched.
    Reflect.deleteProperty(subtle, 'importKey');
    await rm(dir, { recursive: true, force: true });
  });

  it('imports its key once for three documents sealed at once, and seals each validly', async () => {
    const sealer = testSealer();
    const signingTime = new Date('2026-11-02T10:00:00Z');
    const sealed = await Promise.all(
      ['first', 'second', 'third'].map((name) =>
        sealOf(sealer, `The ${name} document`, { reason: `Request ${name}`, signingTime }),
      ),
    );
    assert.equal(imports, 1);
    for (const [i, pdf] of sealed.entries()) {
      const report = await pdfsig(dir, `sealed-${i}.pdf`, pdf);
      assert.match(report, /Signature Validation: Signature is Valid\./, report);
      assert.match(report, /Signer Certificate Common Name: esign test seal/, report);
    }
    await sealOf(sealer, 'a fourth, later', { reason: 'Request fourth', signingTime });
    assert.equal(imports, 1, 'a later document uses the same key');
  });

  it('fails the seal whose key import failed, and imports again for the next', async () => {
    const sealer = testSealer();
    const details = { reason: 'Request retried', signingTime: new Date('2026-11-02T10:00:00Z') };
    failNext = true;
    await assert.rejects(sealOf(sealer, 'refused', details), /key store is not there/);
    const pdf = await sealOf(sealer, 'sealed after all', details);
    assert.equal(imports, 2);
    assert.match(await pdfsig(dir, 'retried.pdf', pdf), /Signature Validation: Signature is Valid\./);
  });
});
