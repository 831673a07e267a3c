import assert from 'node:assert/strict';
import { RequestList, RequestView } from '@esign/contracts';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import { sql } from '@esign/platform';
import { principalKeys } from '@esign/testing';
import * as E from 'fp-ts/lib/Either.js';
import { purgeIdempotencyKeys } from '../../src/adapters/postgres/maintenance.js';
import {
  countRows,
  htmlTemplateBody,
  idsOf,
  pdfWithFields,
  principal,
  PUBLIC_BASE_URL,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

describe('requests service: Requests over HTTP (real Postgres)', () => {
  let h: Harness;
  let html: number;
  let pdf: number;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('requests_api');
    html = await publishedTemplate(h.http);
    pdf = await publishedTemplate(h.http, SITE_A, { type: 'pdf', name: 'Lease', pdf: await pdfWithFields() });
    headers = await principal();
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

  describe('create', () => {
    it('creates a draft and answers each signer an Execution URL signed for that signer', async () => {
      const response = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [html],
          signers: [
            { signer_id: 'alice@example.com', send_to: { email: true } },
            { signer_id: '5552345678', send_to: { mobile_number: true } },
          ],
          fields: [
            { name: 'full_name', default_value: 'Alice', assigned_to: 'alice@example.com' },
            { name: 'agree', assigned_to: '5552345678' },
          ],
          render_data: { client_name: 'Acme' },
          redirect_url: 'https://client.example/done',
        })
        .expect(201);
      assert.ok(E.isRight(RequestView.decode(response.body)), JSON.stringify(response.body));
      const view = response.body as RequestView;
      assert.equal(response.headers.location, `/v1.1/requests/${view.id}`);
      assert.equal(view.state, 'draft');
      assert.equal(view.site_id, SITE_A.id);
      assert.deepEqual(view.contracts, [html]);
      assert.deepEqual(
        view.signers.map((s) => [s.signer_id, s.email, s.mobile_number, s.state]),
        [
          ['alice@example.com', 'alice@example.com', null, 'pending'],
          ['5552345678', null, '15552345678', 'pending'],
        ],
      );
      for (const signer of view.signers) {
        const url = new URL(signer.request_url);
        assert.equal(`${url.origin}${url.pathname}`, `${PUBLIC_BASE_URL}sign`);
        assert.equal(url.searchParams.get('r'), view.id);
        assert.equal(url.searchParams.get('s'), signer.signer_ref);
        const signature = url.searchParams.get('signature')!;
        assert.match(signature, /^k2\./);
        assert.ok(h.deps.urlSigner.verify(view.id, signer.signer_ref, signature));
        const other = view.signers.find((s) => s !== signer)!;
        assert.ok(
          !h.deps.urlSigner.verify(view.id, other.signer_ref, signature),
          'a URL signs one signer only',
        );
      }
      assert.deepEqual(view.fields, [
        { name: 'full_name', default_value: 'Alice', assigned_to: 'alice@example.com' },
        { name: 'agree', default_value: null, assigned_to: '5552345678' },
        { name: 'signature', default_value: null, assigned_to: null },
      ]);
      assert.deepEqual(view.render_data, { client_name: 'Acme' });
      assert.equal(view.redirect_url, 'https://client.example/done');

      const read = await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200);
      assert.deepEqual(read.body, view);
    });

    // Statements per create (ADR 2610): the two reads in one, the writes in one; an
    // Idempotency-Key adds its claim (lock, then lookup) and its record, and with it a
    // transaction (BEGIN/COMMIT aside). Without a key, no transaction at all (ADR 2640).
    for (const { key, accessCode, most } of [
      { key: false, accessCode: false, most: 2 },
      { key: false, accessCode: true, most: 2 },
      { key: true, accessCode: false, most: 5 },
      { key: true, accessCode: true, most: 5 },
    ])
      it(`runs ${most} statements ${key ? 'in one transaction' : 'on one connection, no transaction,'} for 1 contract, 2 signers, 3 fields (Idempotency-Key: ${key}, access code: ${accessCode})`, async () => {
        const template = await publishedTemplate(h.http);
        const tag = `${key}-${accessCode}`;
        h.statements.length = 0;
        await h.http
          .post(`/v1.1/sites/${SITE_A.id}/requests`)
          .set(key ? { ...headers, 'Idempotency-Key': `count-statements-${tag}` } : headers)
          .send({
            contracts: [template],
            signers: [
              {
                signer_id: `count-a-${tag}@example.com`,
                ...(accessCode ? { authentication: { method: 'access_code', access_code: 'blue-42' } } : {}),
              },
              { signer_id: `count-b-${tag}@example.com` },
            ],
            fields: [
              { name: 'full_name', assigned_to: `count-a-${tag}@example.com` },
              { name: 'agree', assigned_to: `count-b-${tag}@example.com` },
              { name: 'signature', assigned_to: `count-a-${tag}@example.com` },
            ],
          })
          .expect(201);
        const statements = [...h.statements];
        // Printed for the record (the README and docs/benchmarks.md quote it).
        console.log(
          `      create with 1 contract, 2 signers, 3 fields (key ${key}, access code ${accessCode}): ${statements.length} statements ${key ? 'in one transaction (plus BEGIN/COMMIT)' : 'on one connection, no BEGIN/COMMIT'}`,
        );
        assert.equal(new Set(statements.map((s) => s.connectionId)).size, 1, 'one connection');
        assert.equal(new Set(statements.map((s) => s.transactionId)).size, 1, 'one transaction or none');
        if (key) assert.notEqual(statements[0]!.transactionId, null);
        else assert.equal(statements[0]!.transactionId, null);
        assert.ok(
          statements.length <= most,
          `${statements.length} statements:\n${statements.map((s) => s.sql).join('\n---\n')}`,
        );
      });

    it('upserts signers per site: a later Request updates the contact, an earlier one shows it', async () => {
      const first = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({ contracts: [html], signers: [{ signer_id: 'crm-42', signer: { email: 'old@example.com' } }] })
        .expect(201);
      const second = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [html],
          signers: [{ signer_id: 'crm-42', signer: { mobile_number: '(555) 777-8888' } }],
        })
        .expect(201);
      assert.equal(second.body.signers[0].email, 'old@example.com', 'kept what the call did not repeat');
      assert.equal(second.body.signers[0].mobile_number, '15557778888');
      const again = await h.http.get(`/v1.1/requests/${first.body.id}`).set(headers).expect(200);
      assert.equal(again.body.signers[0].mobile_number, '15557778888');
      const rows = await h.pool.any(
        sql.unsafe`SELECT * FROM signers WHERE site_id = ${SITE_A.id} AND signer_id = 'crm-42'`,
      );
      assert.equal(rows.length, 1);
    });

    it('refuses what breaks a rule, naming the field, and writes nothing', async () => {
      const draftTemplate = (
        await h.http
          .post(`/v1.1/sites/${SITE_A.id}/contracts`)
          .set(headers)
          .send(htmlTemplateBody())
          .expect(201)
      ).body.id as number;
      const foreign = await publishedTemplate(h.http, SITE_B);
      const before = await countRows(h.pool, 'requests');
      const signersBefore = await countRows(h.pool, 'signers');
      const cases: [unknown, { path: string; message: string }[]][] = [
        [
          { contracts: [foreign], signers: [{ signer_id: 'new-signer' }] },
          [{ path: 'contracts[0]', message: `no contract template ${foreign} on this site` }],
        ],
        [
          { contracts: [draftTemplate], signers: [{ signer_id: 'new-signer' }] },
          [
            {
              path: 'contracts[0]',
              message: `contract template ${draftTemplate} is not published: publish it first`,
            },
          ],
        ],
        [
          { contracts: [pdf], signers: [{ signer_id: 'new-signer' }], render_data: { a: 'b' } },
          [
            {
              path: 'render_data',
              message: `applies to HTML contracts only, and contract ${pdf} is a PDF: pre-fill a PDF with fields[].default_value instead`,
            },
          ],
        ],
        [
          {
            contracts: [pdf],
            signers: [{ signer_id: 'new-signer' }],
            fields: [{ name: 'term', default_value: '6 months' }],
          },
          [
            {
              path: 'fields[0].default_value',
              message: 'must be one of "12 months", "24 months": the options of "term"',
            },
          ],
        ],
        [
          {
            contracts: [html],
            signers: [{ signer_id: 'new-signer', signer: { mobile_number: '+44 20 7946 0958' } }],
          },
          [
            {
              path: 'signers[0].signer.mobile_number',
              message: 'must be a US mobile number: country prefix 1 followed by 10 digits',
            },
          ],
        ],
        [
          { contracts: [html], signers: [{ signer_id: 'new-signer', signer: { email: 'not-an-address' } }] },
          [{ path: 'signers[0].signer.email', message: 'must be an e-mail address' }],
        ],
        [
          { contracts: [html], signers: [{ signer_id: 'new-signer' }], redirect_url: 'javascript:alert(1)' },
          [{ path: 'redirect_url', message: 'must use http or https' }],
        ],
        [
          {
            contracts: [html],
            signers: [{ signer_id: 'new-signer' }],
            redirect_url: 'https://user:pw@evil.example/',
          },
          [{ path: 'redirect_url', message: 'must not carry credentials' }],
        ],
      ];
      for (const [body, errors] of cases) {
        const response = await h.http
          .post(`/v1.1/sites/${SITE_A.id}/requests`)
          .set(headers)
          .send(body as object);
        assert.equal(response.status, 422, JSON.stringify(body));
        assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
        assert.deepEqual(response.body.errors, errors, JSON.stringify(body));
      }
      assert.equal(await countRows(h.pool, 'requests'), before);
      assert.equal(await countRows(h.pool, 'signers'), signersBefore);
    });

    it('answers malformed JSON 400 and an oversized body 413', async () => {
      const malformed = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .set('Content-Type', 'application/json')
        .send('{"contracts": [');
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.code, 'malformed_json');
      const big = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .set('Content-Type', 'application/json')
        .send(
          JSON.stringify({
            contracts: [html],
            signers: [{ signer_id: 'x' }],
            render_data: { client_name: 'x'.repeat(1_100_000) },
          }),
        );
      assert.equal(big.status, 413);
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
