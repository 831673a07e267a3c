import assert from 'node:assert/strict';
import { RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import * as E from 'fp-ts/lib/Either.js';
import {
  countRows,
  htmlTemplateBody,
  PUBLIC_BASE_URL,
  publishedTemplate,
  SITE_A,
  SITE_B,
  type Harness,
} from '../support/harness.js';
import { startRequestsApi } from '../support/requests-api-fixture.js';

describe('requests service: Requests over HTTP (real Postgres), creating them', () => {
  let h: Harness;
  let html: number;
  let pdf: number;
  let headers: Record<string, string>;

  before(async () => {
    ({ h, html, pdf, headers } = await startRequestsApi('requests_api_create'));
  });
  after(async () => {
    await h.close();
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
});
