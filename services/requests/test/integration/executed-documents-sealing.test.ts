import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as t from 'io-ts';
import { db, sql } from '@esign/platform/database';
import {
  executedDocumentsFixture,
  middleOfContent,
  pdfsig,
  pdftotext,
  run,
  sha256,
} from '../support/executed-documents-fixture.js';
import type { Harness } from '../support/harness.js';

/** The executed document as issued: its PAdES seal, its text, and POST /v1.1/verify on it. */
describe('requests service: the sealed executed document and its verification, the file as issued', function () {
  this.timeout(120_000);
  const { ctx, completed, download, verify } = executedDocumentsFixture('executed-sealing');
  // The tests name the fixture's harness and scratch folder directly.
  let h: Harness;
  let dir: string;
  before(() => {
    ({ h, dir } = ctx);
  });

  it('is sealed once (PAdES, whole document, chain embedded), kept, and served byte-identical', async () => {
    const view = await completed('Alice Example');
    const first = await download(view.id);
    const second = await download(view.id);
    assert.ok(Buffer.from(first).equals(Buffer.from(second)), 'two downloads are the same bytes');

    const kept = await db.one(
      h.pool,
      t.type({ sha256: t.string, size: t.number, n: t.number }),
      sql.unsafe`SELECT sha256, size, (SELECT count(*)::int FROM executed_documents WHERE request_id = ${view.id}) AS n
                 FROM executed_documents WHERE request_id = ${view.id}`,
    );
    assert.equal(kept.n, 1);
    assert.equal(kept.sha256, sha256(first));
    assert.equal(kept.size, first.byteLength);

    const report = await pdfsig(dir, 'original.pdf', first);
    assert.match(report, /Signature Validation: Signature is Valid\./, report);
    assert.match(report, /Total document signed/, report);
    assert.match(report, /Signature Type: ETSI\.CAdES\.detached/, report);
    assert.match(report, /Signer Certificate Common Name: esign test seal/, report);
    assert.match(report, /Signing Time: /, report);

    // One byte of the signed content changed: the signature no longer matches.
    const modified = Buffer.from(first);
    const i = middleOfContent(modified);
    modified[i] = modified[i]! ^ 0x01;
    const broken = await pdfsig(dir, 'modified.pdf', modified);
    assert.doesNotMatch(broken, /Signature Validation: Signature is Valid\./, broken);
    assert.match(broken, /Signature Validation: Signature is Invalid|Digest Mismatch/i, broken);
  });

  it('carries the whole certificate chain and the signing time in the CMS', async () => {
    const view = await completed('Chain Checker');
    const pdf = Buffer.from(await download(view.id));
    const contents = /\/Contents\s*<([0-9a-fA-F]+)>/.exec(pdf.toString('latin1'))?.[1];
    assert.ok(contents);
    const cms = join(dir, 'seal.p7s');
    await writeFile(cms, Buffer.from(contents, 'hex'));
    const { stdout } = await run('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', cms]);
    assert.match(stdout, /CN=esign test seal/);
    assert.match(stdout, /CN=esign test CA/);
    assert.match(stdout, /signingTime/);
    assert.match(stdout, /id-smime-aa-signingCertificateV2|1\.2\.840\.113549\.1\.9\.16\.2\.47/);
  });

  it('verify: valid for the file as issued, modified for a one-byte change, unknown for another PDF', async () => {
    const view = await completed('Vera Verify');
    const pdf = await download(view.id);
    const valid = await verify(pdf);
    assert.equal(valid.status, 'valid');
    assert.equal(valid.request_id, view.id);
    assert.equal(valid.file_sha256, sha256(pdf));
    assert.match(String(valid.completed_at), /^\d{4}-\d\d-\d\dT/);
    assert.match(String(valid.document_sha256), /^[0-9a-f]{64}$/);
    assert.deepEqual(
      (valid.contracts as { name: string; sha256: string }[]).map((c) => c.name),
      ['Agreement'],
    );
    assert.deepEqual(valid.signers, [
      {
        signer_id: 'signer@example.com',
        action: 'signed',
        typed_name: 'Vera Verify',
        at: (valid.signers as { at: string }[])[0]!.at,
      },
    ]);

    const changed = Buffer.from(pdf);
    const i = middleOfContent(changed);
    changed[i] = changed[i]! ^ 0x01;
    const modified = await verify(changed);
    assert.deepEqual(modified, { status: 'modified', file_sha256: sha256(changed), request_id: view.id });

    const other = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    assert.deepEqual(await verify(other), { status: 'unknown', file_sha256: sha256(other) });
  });

  it('verify: refuses what is not a PDF, naming the body', async () => {
    const empty = await h.http
      .post('/v1.1/verify')
      .set('Content-Type', 'application/pdf')
      .send(Buffer.alloc(0));
    assert.equal(empty.status, 422);
    assert.match(empty.headers['content-type']!, /application\/problem\+json/);
    assert.equal((empty.body as { errors: { path: string }[] }).errors[0]!.path, 'body');
    const text = await h.http
      .post('/v1.1/verify')
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from('hello, not a pdf'));
    assert.equal(text.status, 422);
    assert.match(JSON.stringify(text.body), /not a PDF/);
    const json = await h.http.post('/v1.1/verify').send({ pdf: 'x' });
    assert.equal(json.status, 415);
  });

  it('draws names in Japanese, Arabic, Hebrew, Greek and Cyrillic as text', async () => {
    const names = ['山田 太郎', 'محمد أحمد', 'דוד כהן', 'Αλέξανδρος', 'Дмитрий Иванов'];
    const view = await completed(names.join(' / '));
    const text = await pdftotext(dir, await download(view.id));
    for (const name of ['山田 太郎', 'Αλέξανδρος', 'Дмитрий Иванов'])
      assert.ok(text.includes(name), `${name} in:\n${text}`);
    // Right-to-left names come out in logical order: the words drawn from the right.
    for (const name of ['محمد أحمد', 'דוד כהן']) assert.ok(text.includes(name), `${name} in:\n${text}`);
  });

  it('draws each of two documents issued at once with its own text (the faces they share, ADR 2940)', async () => {
    const first = await completed('山田 太郎 / محمد أحمد');
    const second = await completed('Αλέξανδρος / Дмитрий Иванов');
    const [a, b] = await Promise.all([download(first.id), download(second.id)]);
    const textA = await pdftotext(dir, a);
    const textB = await pdftotext(dir, b);
    for (const name of ['山田 太郎', 'محمد أحمد']) assert.ok(textA.includes(name), `${name} in:\n${textA}`);
    for (const name of ['Αλέξανδρος', 'Дмитрий Иванов'])
      assert.ok(textB.includes(name), `${name} in:\n${textB}`);
    assert.ok(!textA.includes('Αλέξανδρος') && !textB.includes('山田'), 'neither carries the other');
    for (const [name, pdf] of [
      ['a.pdf', a],
      ['b.pdf', b],
    ] as const)
      assert.match(await pdfsig(dir, name, pdf), /Signature Validation: Signature is Valid\./);
  });
});
