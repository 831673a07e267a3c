import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { makeSealCertificate } from '@esign/platform';
import { db, sql } from '@esign/platform/database';
import { copyUrl } from '../../src/application/deps.js';
import { issueMissingExecutedDocuments } from '../../src/application/executed-documents.js';
import { postgresExecutedDocumentStore } from '../../src/adapters/postgres/postgres-executed-document-store.js';
import { executedDocumentsFixture, pdfsig, run } from '../support/executed-documents-fixture.js';
import {
  htmlTemplateBody,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { startLocalTsa } from '../support/local-tsa.js';
import { lazyPadesSealer } from '../../src/adapters/pdf/lazy-pades-sealer.js';
import { identityFromPem } from '../../src/adapters/pdf/signing-identity.js';
import { sealerOf, testSealer } from '../support/seal.js';

/** Issuing the executed document: late issuance, key rotation, concurrent issuers, no certificate, a TSA. */
describe('requests service: the sealed executed document and its verification, issuing it', function () {
  this.timeout(120_000);
  const { ctx, completed, download, verify } = executedDocumentsFixture('executed-issuing');
  // The tests name the fixture's harness, scratch folder and principal directly.
  let h: Harness;
  let dir: string;
  let headers: Record<string, string>;
  before(() => {
    ({ h, dir, headers } = ctx);
  });
  /** The download's 503 when no seal can be made, its detail saying why. */
  const assertUnavailable = (res: { status: number; body: unknown }, why: RegExp) => {
    assert.equal(res.status, 503);
    assert.equal((res.body as { code: string }).code, 'executed_document_unavailable');
    assert.match((res.body as { detail: string }).detail, why);
  };

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
      assertUnavailable(res, /PDF_SIGNING_/);
    } finally {
      await bare.close();
    }
  });

  it('seals nothing with a certificate out of date: downloads answer 503 naming its expiry, the issuer keeps nothing', async () => {
    const expired = makeSealCertificate({
      commonName: 'esign expired seal',
      now: new Date(Date.now() - 3 * 86_400_000),
      days: 1,
    });
    const stale = await startHarness('executed-expired', {
      sealer: lazyPadesSealer(identityFromPem(expired.chainPem, expired.keyPem), {}),
    });
    try {
      const contract = await publishedTemplate(stale.http, SITE_A, htmlTemplateBody({ name: 'Agreement' }));
      const view = await completed('Old Seal', stale, contract);
      const refused = await stale.http.get(`/v1.1/requests/${view.id}/download`).set(headers);
      assertUnavailable(refused, /the seal's certificate expired on \d{4}-/);
      // The signer's copy link: the Request is complete, its copy not ready yet.
      const link = new URL(
        copyUrl(stale.deps)(
          view.id,
          view.signers[0]!.signer_ref,
          new Date(Date.now() + 86_400_000).toISOString(),
        ),
      );
      const copy = await stale.http.get(`${link.pathname}${link.search}`);
      assert.equal(copy.status, 503);
      assert.equal(copy.headers['retry-after'], '30');
      assert.match(copy.text, /Your copy is not ready yet/);
      assert.doesNotMatch(copy.text, /Not everyone has signed/);
      const attempt = await issueMissingExecutedDocuments(stale.deps)(10)();
      assert.ok(E.isRight(attempt));
      assert.equal(attempt.right.issued, 0);
      assert.match(attempt.right.failed.find((f) => f.requestId === view.id)?.reason ?? '', /expired on/);
      const none = await db.one(
        stale.pool,
        t.type({ n: t.number }),
        sql.unsafe`SELECT count(*)::int AS n FROM executed_documents WHERE request_id = ${view.id}`,
      );
      assert.equal(none.n, 0);
    } finally {
      await stale.close();
    }
  });

  it('with a TSA configured: an RFC 3161 token over the signature; a TSA outage is a 503 and keeps nothing', async () => {
    const tsa = await startLocalTsa();
    const stamped = await startHarness('executed-tsa', { sealer: testSealer({ tsaUrl: tsa.url }) });
    try {
      const contract = await publishedTemplate(stamped.http, SITE_A, htmlTemplateBody({ name: 'Agreement' }));

      tsa.fail(true);
      const late = await completed('Tess Outage', stamped, contract);
      const refused = await stamped.http.get(`/v1.1/requests/${late.id}/download`).set(headers);
      assertUnavailable(refused, /TSA answered 503/);
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
