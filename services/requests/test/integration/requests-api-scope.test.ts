import assert from 'node:assert/strict';
import { PRINCIPAL_AUDIENCES, RequestList } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { principalKeys } from '@esign/testing';
import * as E from 'fp-ts/lib/Either.js';
import { idsOf, principal, publishedTemplate, SITE_A, SITE_B, type Harness } from '../support/harness.js';
import { startRequestsApi } from '../support/requests-api-fixture.js';

describe('requests service: Requests over HTTP (real Postgres), authentication, site scope and listing', () => {
  let h: Harness;
  let html: number;
  let headers: Record<string, string>;

  before(async () => {
    ({ h, html, headers } = await startRequestsApi('requests_api_scope'));
  });
  after(async () => {
    await h.close();
  });

  describe('authentication', () => {
    it('refuses a call without the forwarded principal, or with a forged one, as 401', async () => {
      const missing = await h.http.get(`/v1.1/sites/${SITE_A.id}/requests`).expect(401);
      assert.equal(missing.body.code, 'unauthenticated');
      const forged = await principalKeys().sign(PRINCIPAL_AUDIENCES.requests, {
        sub: 'x',
        token_id: 't',
        sites: [SITE_A],
      });
      const invalid = await h.http
        .get(`/v1.1/sites/${SITE_A.id}/requests`)
        .set('x-esign-principal', forged)
        .expect(401);
      assert.equal(invalid.body.code, 'invalid_principal');
      await h.http.post(`/v1.1/sites/${SITE_A.id}/requests`).send({}).expect(401);
    });
  });

  describe('site scope', () => {
    it("answers 404 for another site's Request, and for a site the caller does not reach", async () => {
      const headersB = await principal([SITE_B]);
      const created = await h.http
        .post(`/v1.1/sites/${SITE_B.id}/requests`)
        .set(headersB)
        .send({ contracts: [await publishedTemplate(h.http, SITE_B)], signers: [{ signer_id: 'b' }] })
        .expect(201);
      const foreign = await h.http.get(`/v1.1/requests/${created.body.id}`).set(headers).expect(404);
      const missing = await h.http
        .get('/v1.1/requests/00000000-0000-4000-8000-000000000000')
        .set(headers)
        .expect(404);
      assert.equal(foreign.body.detail, missing.body.detail);
      assert.equal(foreign.body.code, missing.body.code);
      await h.http.get('/v1.1/requests/not-a-uuid').set(headers).expect(404);
      await h.http
        .post(`/v1.1/sites/${SITE_B.id}/requests`)
        .set(headers)
        .send({ contracts: [html], signers: [{ signer_id: 'x' }] })
        .expect(404);
      await h.http.get(`/v1.1/sites/${SITE_B.id}/requests`).set(headers).expect(404);
      await h.http.get(`/v1.1/sites/abc/requests`).set(headers).expect(404);
    });
  });

  describe('list', () => {
    it("lists a site's Requests newest first, paged, filtered by state", async () => {
      const site = { id: 404, name: 'Paging' };
      const siteHeaders = await principal([site]);
      const template = await publishedTemplate(h.http, site);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        h.clock.advance(1000);
        const r = await h.http
          .post(`/v1.1/sites/${site.id}/requests`)
          .set(siteHeaders)
          .send({ contracts: [template], signers: [{ signer_id: `s${i}` }] })
          .expect(201);
        ids.push(r.body.id as string);
      }
      await h.pool.query(
        sql.unsafe`UPDATE requests SET state = 'cancelled', cancelled_at = now() WHERE id = ${ids[3]!}`,
      );
      const page = await h.http
        .get(`/v1.1/sites/${site.id}/requests?page=2&per_page=2`)
        .set(siteHeaders)
        .expect(200);
      assert.ok(E.isRight(RequestList.decode(page.body)));
      assert.deepEqual(
        { ...page.body, data: idsOf(page.body) },
        { page: 2, per_page: 2, count: 2, total_count: 5, has_more: true, data: [ids[2], ids[1]] },
      );
      const last = await h.http
        .get(`/v1.1/sites/${site.id}/requests?page=3&per_page=2`)
        .set(siteHeaders)
        .expect(200);
      assert.equal(last.body.has_more, false);
      assert.equal(last.body.count, 1);
      const cancelled = await h.http
        .get(`/v1.1/sites/${site.id}/requests?state=cancelled`)
        .set(siteHeaders)
        .expect(200);
      assert.deepEqual(idsOf(cancelled.body), [ids[3]]);
      assert.equal(cancelled.body.per_page, 20);
      const bad = await h.http
        .get(`/v1.1/sites/${site.id}/requests?state=open&page=0`)
        .set(siteHeaders)
        .expect(400);
      assert.deepEqual(bad.body.errors, [
        { path: 'page', message: 'must be an integer from 1 to 1000000' },
        {
          path: 'state',
          message: 'must be one of "draft", "sent", "completed", "cancelled", "expired", "declined"',
        },
      ]);
    });
  });
});
