import assert from 'node:assert/strict';
import { sql } from '@esign/platform/database';
import { purgeIdempotencyKeys } from '../../src/adapters/postgres/maintenance.js';
import {
  countRows,
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  type Harness,
} from '../support/harness.js';
import { startRequestsApi } from '../support/requests-api-fixture.js';

describe('requests service: Requests over HTTP (real Postgres), Idempotency-Key', () => {
  let h: Harness;
  let html: number;
  let headers: Record<string, string>;

  before(async () => {
    ({ h, html, headers } = await startRequestsApi('requests_api_idempotency'));
  });
  after(async () => {
    await h.close();
  });

  describe('Idempotency-Key', () => {
    const body = () => ({ contracts: [html], signers: [{ signer_id: 'idem@example.com' }] });

    it('replays the first answer for the same key and body, and runs the call once', async () => {
      const before = await countRows(h.pool, 'requests');
      const first = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-replay' })
        .send(body())
        .expect(201);
      // Same body, keys in another order: the same call.
      const again = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-replay' })
        .send({ signers: body().signers, contracts: body().contracts })
        .expect(201);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(first.headers['idempotent-replayed'], undefined);
      assert.equal(await countRows(h.pool, 'requests'), before + 1);
    });

    it('answers 422 for the same key with another body or on another endpoint', async () => {
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-reuse' })
        .send(body())
        .expect(201);
      const other = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-reuse' })
        .send({ ...body(), redirect_url: 'https://x.example/' })
        .expect(422);
      assert.equal(other.body.code, 'idempotency_key_reused');
      const elsewhere = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/contracts`)
        .set({ ...headers, 'Idempotency-Key': 'k-reuse' })
        .send(htmlTemplateBody())
        .expect(422);
      assert.equal(elsewhere.body.code, 'idempotency_key_reused');
    });

    it('answers 409 while a call with the same key is in flight', async () => {
      // Hold the key the way an in-flight call does: its transaction owns the key's lock.
      await h.pool.transaction(async (tx) => {
        await tx.query(
          sql.unsafe`SELECT pg_advisory_xact_lock(hashtextextended(${`${SITE_A.id}:k-flight`}, 0))`,
        );
        const response = await h.http
          .post(`/v1.1/sites/${SITE_A.id}/requests`)
          .set({ ...headers, 'Idempotency-Key': 'k-flight' })
          .send(body());
        assert.equal(response.status, 409);
        assert.equal(response.body.code, 'idempotency_key_in_flight');
      });
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-flight' })
        .send(body())
        .expect(201);
    });

    it('scopes keys by site, stores no refusal, and refuses a malformed key', async () => {
      const headersB = await principal([SITE_B]);
      const templateB = await publishedTemplate(h.http, SITE_B);
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-scope' })
        .send(body())
        .expect(201);
      await h.http
        .post(`/v1.1/sites/${SITE_B.id}/requests`)
        .set({ ...headersB, 'Idempotency-Key': 'k-scope' })
        .send({ contracts: [templateB], signers: [{ signer_id: 'b' }] })
        .expect(201);
      const refused = { contracts: [999999], signers: [{ signer_id: 'x' }] };
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-refused' })
        .send(refused)
        .expect(422);
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-refused' })
        .send(body())
        .expect(201);
      const malformed = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'has space' })
        .send(body())
        .expect(400);
      assert.equal(malformed.body.code, 'invalid_idempotency_key');
    });

    it('forgets a key once its retention has passed', async () => {
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-old' })
        .send(body())
        .expect(201);
      await h.pool.query(
        sql.unsafe`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'k-old'`,
      );
      const fresh = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set({ ...headers, 'Idempotency-Key': 'k-old' })
        .send({ ...body(), redirect_url: 'https://later.example/' })
        .expect(201);
      assert.equal(fresh.headers['idempotent-replayed'], undefined);
    });

    it('purges answers past their retention, in batches, and keeps the rest', async () => {
      await h.pool.query(
        sql.unsafe`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key IN ('k-replay', 'k-reuse')`,
      );
      const kept = (await countRows(h.pool, 'idempotency_keys')) - 2;
      assert.equal(await purgeIdempotencyKeys(h.pool, 24, 1), 2);
      assert.equal(await countRows(h.pool, 'idempotency_keys'), kept);
    });
  });
});
