import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform';
import { issueMissingExecutedDocuments } from '../../src/application/executed-documents.js';
import { postgresExecutedDocumentStore } from '../../src/adapters/postgres/postgres-executed-document-store.js';
import { makeSealCertificate } from '@esign/platform';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { startLocalTsa } from '../support/local-tsa.js';
import { sealerOf, testSealer } from '../support/seal.js';
import { formBody, hiddenInputs, pathOf } from '../support/signer-forms.js';

const run = promisify(execFile);
const FORM = 'application/x-www-form-urlencoded';

/** poppler's pdfsig on a file: its report, whatever its exit status. */
const pdfsig = async (dir: string, name: string, bytes: Uint8Array): Promise<string> => {
  const file = join(dir, name);
  await writeFile(file, bytes);
  try {
    const { stdout } = await run('pdfsig', [file]);
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: unknown };
    if (failed.code === 'ENOENT')
      throw new Error('pdfsig is missing: install poppler-utils (.ci/apt-packages)');
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
};

/** poppler's pdftotext: the text a reader copies out of the file. */
const pdftotext = async (dir: string, bytes: Uint8Array): Promise<string> => {
  const file = join(dir, 'text.pdf');
  await writeFile(file, bytes);
  return (await run('pdftotext', ['-enc', 'UTF-8', file, '-'])).stdout;
};

/** A byte in the middle of what the seal covers before its signature (the pages' content). */
const middleOfContent = (pdf: Buffer): number => {
  const range = /\/ByteRange\s*\[\s*0\s+(\d+)/.exec(pdf.toString('latin1'));
  assert.ok(range, 'the seal has a /ByteRange');
  return Math.floor(Number(range[1]) / 2);
};

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The executed document over HTTP against real Postgres: built once and sealed as PAdES
 * (checked by poppler's pdfsig), kept, served byte-identical, verified by POST /v1.1/verify.
 */
describe('requests service: the sealed executed document and its verification', function () {
  this.timeout(120_000);
  let h: Harness;
  let dir: string;
  let headers: Record<string, string>;
  let template: number;

  /** A Request of one signer who signs as `name`; answers it completed. */
  const completed = async (name: string, on: Harness = h, contract = template): Promise<RequestView> => {
    const view = (
      await on.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [contract],
          signers: [{ signer_id: 'signer@example.com' }],
          fields: ['full_name', 'agree', 'signature'].map((f) => ({
            name: f,
            assigned_to: 'signer@example.com',
          })),
          render_data: { client_name: 'Client', start_date: '2030-01-01' },
        })
        .expect(201)
    ).body as RequestView;
    await on.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200);
    const page = await on.http.get(pathOf(view.signers[0]!.request_url)).expect(200);
    const signed = await on.http
      .post('/sign')
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
      .send(
        formBody({
          ...hiddenInputs(page.text, '/sign'),
          f0: name,
          f1: 'on',
          typed_name: name,
          consent: 'yes',
        }),
      );
    assert.equal(signed.status, 303, signed.text.slice(0, 500));
    return view;
  };

  const download = async (id: string): Promise<Uint8Array> => {
    const res = await h.http.get(`/v1.1/requests/${id}/download`).set(headers).buffer(true).expect(200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    return new Uint8Array(res.body as Buffer);
  };

  const verify = async (bytes: Uint8Array, status = 200) =>
    (
      await h.http
        .post('/v1.1/verify')
        .set('Content-Type', 'application/pdf')
        .send(Buffer.from(bytes))
        .expect(status)
    ).body as Record<string, unknown>;

  before(async () => {
    h = await startHarness('executed');
    dir = await mkdtemp(join(tmpdir(), 'executed-'));
    headers = await principal();
    template = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ name: 'Agreement' }));
  });
  after(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
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

  it('a Request completed before documents were kept gets its document issued once; rotation keeps old ones', async () => {
    const view = await completed('Olga Older');
    // As if it had completed before this change: nothing kept yet.
    await db.exec(h.pool, sql.unsafe`DELETE FROM executed_documents WHERE request_id = ${view.id}`);
    const before = await db.one(
      h.pool,
      t.type({ n: t.number }),
      sql.unsafe`SELECT count(*)::int AS n FROM executed_documents WHERE request_id = ${view.id}`,
    );
    assert.equal(before.n, 0);
    const issued = await issueMissingExecutedDocuments(h.deps)(10)();
    assert.ok(E.isRight(issued) && issued.right.issued >= 1 && issued.right.failed.length === 0);
    const old = await download(view.id);
    assert.match(await pdfsig(dir, 'old.pdf', old), /CN=esign test seal|Common Name: esign test seal/);

    // The key rotates: new documents are sealed with the new certificate; the old file
    // is still served as it was, verifies, and its own seal still checks.
    const rotated = {
      ...h.deps,
      sealer: sealerOf(makeSealCertificate({ commonName: 'esign rotated seal' })),
    };
    const next = await completed('Nadia Newer');
    await db.exec(h.pool, sql.unsafe`DELETE FROM executed_documents WHERE request_id = ${next.id}`);
    await issueMissingExecutedDocuments(rotated)(10)();
    const fresh = await download(next.id);
    assert.match(await pdfsig(dir, 'rotated.pdf', fresh), /Common Name: esign rotated seal/);
    assert.ok(Buffer.from(await download(view.id)).equals(Buffer.from(old)));
    assert.equal((await verify(old)).status, 'valid');
    const report = await pdfsig(dir, 'old-again.pdf', old);
    assert.match(report, /Signature is Valid/);
  });

  it('two issuers of one Request at once keep one document, and both answer it', async () => {
    // The background issuer and a first download may seal in the same second: identical
    // bytes (an RSA signature is deterministic), two inserts in flight at once.
    // Both inserts collide on the sha256 index as often as on the primary key: a document
    // the size of a real one keeps the two in flight long enough to race.
    const store = postgresExecutedDocumentStore(h.pool);
    const view = await completed('Carla Concurrent');
    const pdf = new Uint8Array(256 * 1024).fill(0x20);
    pdf.set(new TextEncoder().encode(`%PDF-1.7 ${view.id}`));
    const document = {
      requestId: view.id,
      pdf,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      certificateSha256: 'ab'.repeat(32),
      signedAt: new Date().toISOString(),
      timestampedAt: null,
    };
    for (let round = 0; round < 60; round++) {
      await db.exec(h.pool, sql.unsafe`DELETE FROM executed_documents WHERE request_id = ${view.id}`);
      const kept = await Promise.all([store.insertOnce(document)(), store.insertOnce(document)()]);
      for (const k of kept) assert.ok(E.isRight(k), `round ${round}: ${String(E.isLeft(k) ? k.left : '')}`);
      const rows = await db.one(
        h.pool,
        t.type({ n: t.number }),
        sql.unsafe`SELECT count(*)::int AS n FROM executed_documents WHERE request_id = ${view.id}`,
      );
      assert.equal(rows.n, 1);
    }
  });

  it('answers 503 naming the setting when no signing certificate is configured', async () => {
    const bare = await startHarness('executed-bare', { sealer: null });
    try {
      const contract = await publishedTemplate(bare.http, SITE_A, htmlTemplateBody({ name: 'Agreement' }));
      const view = await completed('No Seal', bare, contract);
      const res = await bare.http.get(`/v1.1/requests/${view.id}/download`).set(headers);
      assert.equal(res.status, 503);
      assert.equal((res.body as { code: string }).code, 'executed_document_unavailable');
      assert.match((res.body as { detail: string }).detail, /PDF_SIGNING_/);
    } finally {
      await bare.close();
    }
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

  it('with a TSA configured: an RFC 3161 token over the signature; a TSA outage is a 503 and keeps nothing', async () => {
    const tsa = await startLocalTsa();
    const stamped = await startHarness('executed-tsa', { sealer: testSealer({ tsaUrl: tsa.url }) });
    try {
      const contract = await publishedTemplate(stamped.http, SITE_A, htmlTemplateBody({ name: 'Agreement' }));

      tsa.fail(true);
      const late = await completed('Tess Outage', stamped, contract);
      const refused = await stamped.http.get(`/v1.1/requests/${late.id}/download`).set(headers);
      assert.equal(refused.status, 503);
      assert.equal((refused.body as { code: string }).code, 'executed_document_unavailable');
      assert.match((refused.body as { detail: string }).detail, /TSA answered 503/);
      assert.equal(refused.headers['retry-after'], '30');
      const none = await db.one(
        stamped.pool,
        t.type({ n: t.number }),
        sql.unsafe`SELECT count(*)::int AS n FROM executed_documents WHERE request_id = ${late.id}`,
      );
      assert.equal(none.n, 0);
      // The background issuer reports it and goes on; nothing is kept either.
      const attempt = await issueMissingExecutedDocuments(stamped.deps)(10)();
      assert.ok(E.isRight(attempt));
      assert.equal(attempt.right.issued, 0);
      assert.deepEqual(
        attempt.right.failed.map((f) => f.requestId),
        [late.id],
      );
      assert.match(attempt.right.failed[0]!.reason, /TSA answered 503/);
      tsa.fail(false);

      const view = await completed('Tess Timestamp', stamped, contract);
      const pdf = Buffer.from(
        (await stamped.http.get(`/v1.1/requests/${view.id}/download`).set(headers).buffer(true).expect(200))
          .body as Buffer,
      );
      assert.ok(tsa.answered() >= 1);
      const report = await pdfsig(dir, 'stamped.pdf', pdf);
      assert.match(report, /Signature is Valid/, report);
      assert.match(report, /Total document signed/, report);

      // The token sits in the signer's unsigned attributes, and openssl checks it over the signature value.
      const contents = /\/Contents\s*<([0-9a-fA-F]+)>/.exec(pdf.toString('latin1'))![1]!;
      const cmsFile = join(dir, 'stamped.p7s');
      await writeFile(cmsFile, Buffer.from(contents, 'hex'));
      const { stdout } = await run('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', cmsFile]);
      assert.match(stdout, /unsignedAttrs:[\s\S]*id-smime-aa-timeStampToken/);
      assert.ok(
        Buffer.from(contents, 'hex').includes('esign test TSA'),
        'the TSA certificate rides with its token',
      );

      const kept = await db.one(
        stamped.pool,
        t.type({ timestamped_at: t.unknown }),
        sql.unsafe`SELECT timestamped_at FROM executed_documents WHERE request_id = ${view.id}`,
      );
      assert.notEqual(kept.timestamped_at, null);
      const verified = (
        await stamped.http.post('/v1.1/verify').set('Content-Type', 'application/pdf').send(pdf).expect(200)
      ).body as { status: string; timestamped_at: string | null };
      assert.equal(verified.status, 'valid');
      assert.match(String(verified.timestamped_at), /^\d{4}-\d\d-\d\dT/);
    } finally {
      await stamped.close();
      await tsa.close();
    }
  });
});
