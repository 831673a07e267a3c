import assert from 'node:assert/strict';
import { CreateRequestBody } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import fc from 'fast-check';
import { propertyRuns } from '@esign/testing';
import {
  countRows,
  pdfWithFields,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';

type Body = Record<string, unknown>;
type Mutation = (body: Body, ids: { html: number; pdf: number }) => Body;

/** Something that is not what the field wants. */
const wrongType = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string(),
  fc.constant({}),
  fc.constant([]),
);

const signers = (b: Body): Body[] =>
  Array.isArray(b.signers) ? (b.signers as Body[]) : [{ signer_id: 'x' }];

/**
 * Each mutation breaks the body in one way that holds whatever else is changed after it,
 * so a body with any number of them is invalid.
 */
const mutations: fc.Arbitrary<Mutation>[] = [
  fc.constantFrom('contracts', 'signers').map((key) => (b) => {
    const { [key]: _, ...rest } = b;
    return rest;
  }),
  fc
    .constantFrom(
      [],
      [0],
      [-1],
      [1.5],
      ['1'],
      Array.from({ length: 21 }, (_, i) => i + 1),
    )
    .map((v) => (b) => ({ ...b, contracts: v })),
  wrongType.filter((v) => !Array.isArray(v)).map((v) => (b) => ({ ...b, contracts: v })),
  fc.constant<Mutation>((b, ids) => ({ ...b, contracts: [ids.html, ids.html] })),
  fc.integer({ min: 900_000, max: 2_000_000_000 }).map((id) => (b) => ({ ...b, contracts: [id] })),
  wrongType.filter((v) => !Array.isArray(v)).map((v) => (b) => ({ ...b, signers: v })),
  fc.constant<Mutation>((b) => ({ ...b, signers: [] })),
  fc.constant<Mutation>((b) => ({
    ...b,
    signers: Array.from({ length: 101 }, (_, i) => ({ signer_id: `s${i}` })),
  })),
  fc
    .constantFrom<unknown>(undefined, '', 'x'.repeat(256), 5, null)
    .map((id) => (b) => ({ ...b, signers: [{ signer_id: id }] })),
  fc.constant<Mutation>((b) => ({ ...b, signers: [...signers(b), signers(b)[0]] })),
  fc
    .string({ minLength: 1, maxLength: 10 })
    .filter((k) => !['signer_id', 'signer', 'send_to'].includes(k))
    .map((k) => (b) => ({ ...b, signers: [{ ...signers(b)[0], [k]: 1 }] })),
  fc
    .constantFrom('not-an-email', 'a@', '@b.co', 'a b@c.co', 'x'.repeat(250) + '@b.co')
    .map((email) => (b) => ({ ...b, signers: [{ signer_id: 'e', signer: { email } }] })),
  fc
    .constantFrom('+44 20 7946 0958', '555123', '25552345678', '1-555-234-56788', 'phone')
    .map((mobile_number) => (b) => ({ ...b, signers: [{ signer_id: 'm', signer: { mobile_number } }] })),
  wrongType
    .filter((v) => typeof v !== 'boolean')
    .map((v) => (b) => ({ ...b, signers: [{ signer_id: 'st', send_to: { email: v } }] })),
  wrongType.filter((v) => !Array.isArray(v)).map((v) => (b) => ({ ...b, fields: v })),
  fc.constant<Mutation>((b) => ({ ...b, fields: [{ assigned_to: 'alice@example.com' }] })),
  fc
    .string({ minLength: 1, maxLength: 20 })
    .filter((n) => !['full_name', 'agree', 'signature', 'tenant', 'pets', 'term'].includes(n))
    .map((name) => (b) => ({ ...b, fields: [{ name }] })),
  fc
    .oneof(fc.string(), fc.integer(), fc.constant(null))
    .map((v) => (b) => ({ ...b, fields: [{ name: 'agree', default_value: v }] })),
  fc
    .constantFrom<unknown>(true, 'x'.repeat(81), 42)
    .map((v) => (b) => ({ ...b, fields: [{ name: 'full_name', default_value: v }] })),
  fc
    .string({ minLength: 1, maxLength: 20 })
    .map((who) => (b) => ({ ...b, fields: [{ name: 'full_name', assigned_to: `ghost:${who}` }] })),
  fc.constant<Mutation>((b) => ({ ...b, fields: [{ name: 'agree' }, { name: 'agree' }] })),
  fc.constant<Mutation>((b) => ({ ...b, fields: [{ name: 'signature', default_value: 'Alice' }] })),
  wrongType
    .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
    .map((v) => (b) => ({ ...b, render_data: v })),
  fc
    .string({ minLength: 1, maxLength: 20 })
    .filter((k) => !['client_name', 'start_date'].includes(k))
    .map((k) => (b) => ({ ...b, render_data: { [k]: 'v' } })),
  fc.constant<Mutation>((b) => ({ ...b, render_data: { client_name: 7 } })),
  fc.constant<Mutation>((b, ids) => ({ ...b, contracts: [ids.pdf], render_data: {} })),
  fc
    .constantFrom(
      'javascript:alert(1)',
      'data:text/html,hi',
      '/relative',
      'ftp://x.example/',
      'https://u:p@x.example/',
      'not a url',
      `https://x.example/${'a'.repeat(2048)}`,
    )
    .map((url) => (b) => ({ ...b, redirect_url: url })),
  fc
    .constantFrom(
      '2000-01-01T00:00:00Z',
      'tomorrow',
      '2030-13-01T00:00:00Z',
      '2999-01-01T00:00:00Z',
      '2030-01-01',
    )
    .map((at) => (b) => ({ ...b, expires_at: at })),
  fc
    .string({ minLength: 1, maxLength: 12 })
    .filter(
      (k) => !['contracts', 'signers', 'fields', 'render_data', 'redirect_url', 'expires_at'].includes(k),
    )
    .map((k) => (b) => ({ ...b, [k]: true })),
];

/*
 * Bounded by run count from a fixed seed (libs/testing/src/property.ts): 29 kinds of
 * breakage, 1 to 3 at a time, are each drawn about twenty times in 300 bodies; more bodies
 * only cost time on a busy machine. Measured: 1,500 bodies took 5 s idle, while 400 took
 * 21 s with two CPU burners on a machine already at load 14; the timeout keeps 10x margin.
 */
describe('requests service: create refuses every invalid body (property-based, real Postgres)', function () {
  this.timeout(180_000);
  let h: Harness;
  let ids: { html: number; pdf: number };
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('create_property');
    ids = {
      html: await publishedTemplate(h.http),
      pdf: await publishedTemplate(h.http, SITE_A, {
        type: 'pdf',
        name: 'Lease',
        pdf: await pdfWithFields(),
      }),
    };
    headers = await principal();
  });
  after(async () => {
    await h.close();
  });

  const valid = (): Body => ({
    contracts: [ids.html],
    signers: [
      { signer_id: 'alice@example.com', send_to: { email: true } },
      { signer_id: 'bob', signer: { mobile_number: '5552345678' }, send_to: { mobile_number: true } },
    ],
    fields: [{ name: 'full_name', default_value: 'Alice', assigned_to: 'alice@example.com' }],
    render_data: { client_name: 'Acme' },
    redirect_url: 'https://client.example/done',
  });

  const expectRefused = async (body: unknown): Promise<void> => {
    const response = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
    assert.ok(
      response.status >= 400 && response.status < 500,
      `status ${response.status} for ${JSON.stringify(body).slice(0, 500)}`,
    );
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    assert.equal(typeof response.body.code, 'string');
  };

  it("the valid base body is accepted (so the refusals below are the mutations' doing)", async () => {
    await h.http.post(`/v1.1/sites/${SITE_A.id}/requests`).set(headers).send(valid()).expect(201);
    await h.pool.query(sql.unsafe`TRUNCATE requests, signers CASCADE`);
  });

  it('answers 4xx problem+json to 300 bodies broken in 1 to 3 ways, and writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(...mutations), { minLength: 1, maxLength: 3 }), async (chosen) => {
        await expectRefused(chosen.reduce((body, mutate) => mutate(body, ids), valid()));
      }),
      propertyRuns(300),
    );
    assert.equal(await countRows(h.pool, 'requests'), 0);
    assert.equal(await countRows(h.pool, 'signers'), 0);
    assert.equal(await countRows(h.pool, 'idempotency_keys'), 0);
  });

  it('answers 4xx problem+json to 150 arbitrary JSON documents, and writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue().filter((v) => !CreateRequestBody.is(v)),
        async (body) => {
          await expectRefused(body);
        },
      ),
      propertyRuns(150),
    );
    assert.equal(await countRows(h.pool, 'requests'), 0);
    assert.equal(await countRows(h.pool, 'signers'), 0);
  });
});
