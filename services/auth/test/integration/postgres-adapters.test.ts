import assert from 'node:assert/strict';
import * as O from 'fp-ts/lib/Option.js';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import request from 'supertest';
import { db, sql } from '@esign/platform/database';
import { testLogger } from '@esign/testing';
import { postgresHousekeeping } from '../../src/adapters/postgres/postgres-housekeeping.js';
import { createTokenForApp } from '../../src/application/admin-tokens.js';
import { clientCredentialsGrant } from '../../src/application/client-credentials.js';
import { issueClientSecret } from '../../src/application/client-secret.js';
import { createApp } from '../../src/application/create-app.js';
import { signIn } from '../../src/application/sign-in.js';
import { addMember, createSite } from '../../src/application/sites.js';
import { createUser } from '../../src/application/users.js';
import { INTERNAL_SECRET, PASSWORD, seedAccount, startHarness, type Harness } from '../support/harness.js';
import { valueOf } from '../support/port-task.js';

describe('auth: Postgres adapters and internal endpoints', () => {
  let h: Harness;
  let seeded: Awaited<ReturnType<typeof seedAccount>>;
  let appId: string;

  before(async () => {
    h = await startHarness('auth_postgres');
    seeded = await seedAccount(h.deps, {
      sites: ['Production', 'Staging'],
      users: { 'dev@acme.test': ['Production'] },
    });
    const app = await createApp(h.deps)({ userId: seeded.users.get('dev@acme.test')!.id, name: 'App' })();
    assert.ok(E.isRight(app));
    appId = app.right.id;
  });
  after(() => h.close());
  afterEach(() => h.clock.reset());

  const issue = async () => {
    const issued = await createTokenForApp(h.deps)({ appId })();
    assert.ok(E.isRight(issued));
    return issued.right;
  };
  const introspect = (body: unknown, secret = INTERNAL_SECRET) =>
    request(h.callback)
      .post('/internal/introspect')
      .set('Authorization', `Bearer ${secret}`)
      .send(body as object);

  it('keeps e-mail addresses unique whatever their casing, and site names unique per account', async () => {
    const taken = await createUser(h.deps)({
      accountId: seeded.account.id,
      email: 'DEV@ACME.TEST',
      password: PASSWORD,
    })();
    assert.deepEqual(taken, E.left({ _tag: 'EmailTaken', email: 'dev@acme.test' }));
    const dup = await createSite(h.deps)({ accountId: seeded.account.id, name: 'Production' })();
    assert.deepEqual(dup, E.left({ _tag: 'SiteNameTaken', name: 'Production' }));
    const other = await seedAccount(h.deps, {
      name: 'Other',
      sites: ['Production'],
      users: { 'x@other.test': [] },
    });
    assert.ok(
      other.sites.get('Production')!.id > seeded.sites.get('Staging')!.id,
      'site ids are integers, in order',
    );
    const cross = await addMember(h.deps)({
      siteId: other.sites.get('Production')!.id,
      userId: seeded.users.get('dev@acme.test')!.id,
    })();
    assert.ok(E.isLeft(cross) && cross.left._tag === 'DifferentAccounts');
    const missingSite = await addMember(h.deps)({
      siteId: 2_000_000_000,
      userId: seeded.users.get('dev@acme.test')!.id,
    })();
    assert.ok(
      E.isLeft(missingSite) && missingSite.left._tag === 'NotFound' && missingSite.left.entity === 'site',
    );
  });

  it('answers introspection for the gateway, behind the internal secret', async () => {
    const { record } = await issue();
    const answer = await introspect({ token_id: record.id }).expect(200);
    assert.deepEqual(answer.body, {
      active: true,
      sub: record.userId,
      token_id: record.id,
      sites: [{ id: seeded.sites.get('Production')!.id, name: 'Production', default_locale: null }],
      email: 'dev@acme.test',
    });
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.deepEqual((await introspect({ token_id: 'not-a-token' }).expect(200)).body, { active: false });
    assert.deepEqual(
      (await introspect({ token_id: '00000000-0000-4000-8000-000000000000' }).expect(200)).body,
      {
        active: false,
      },
    );
    assert.equal(
      (await introspect({ token_id: record.id }, 'wrong-secret').expect(401)).body.code,
      'unauthorized',
    );
    await request(h.callback).post('/internal/introspect').send({ token_id: record.id }).expect(401);
    assert.deepEqual((await introspect({ tokenId: record.id }).expect(422)).body.errors, [
      { path: 'tokenId', message: 'unknown field' },
    ]);
  });

  it('records last use at most once a minute per token, written in batches', async () => {
    const { record } = await issue();
    const lastUsed = async () =>
      (
        await db.one(
          h.pool,
          t.type({ last_used_at: t.union([t.string, t.null]) }),
          sql.unsafe`SELECT last_used_at FROM access_tokens WHERE id = ${record.id}`,
        )
      ).last_used_at;
    await introspect({ token_id: record.id }).expect(200);
    assert.equal(await lastUsed(), null, 'nothing written per call');
    await h.usage.flush();
    const first = await lastUsed();
    assert.ok(first !== null);
    h.clock.shift(30);
    await introspect({ token_id: record.id }).expect(200);
    await h.usage.flush();
    assert.equal(await lastUsed(), first, 'within a minute: not rewritten');
    h.clock.shift(60);
    await introspect({ token_id: record.id }).expect(200);
    await h.usage.flush();
    assert.ok(Date.parse((await lastUsed())!) > Date.parse(first));
  });

  it('publishes the JWKS with a short public cache lifetime', async () => {
    await issue();
    const response = await request(h.callback).get('/.well-known/jwks.json').expect(200);
    assert.equal(response.headers['cache-control'], 'public, max-age=60');
    assert.ok(response.body.keys.length >= 1);
    for (const key of response.body.keys as Array<Record<string, unknown>>) {
      assert.deepEqual(Object.keys(key).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x']);
      assert.equal(key.alg, 'EdDSA');
    }
  });

  it('keeps private keys sealed at rest', async () => {
    const rows = await db.any(
      h.pool,
      t.type({ kid: t.string, encryption_key_id: t.string, sealed: t.string }),
      sql.unsafe`SELECT kid, encryption_key_id, encode(sealed_private_key, 'hex') AS sealed FROM signing_keys`,
    );
    assert.ok(rows.length >= 1);
    for (const row of rows) {
      assert.equal(row.encryption_key_id, 'k1');
      // An unsealed PKCS#8 Ed25519 key starts 302e020100300506032b6570.
      assert.ok(!row.sealed.includes('302e020100300506032b6570'));
    }
  });

  it('never stores session credentials or client secrets in the clear', async () => {
    const signedIn = await signIn(h.deps)({ email: 'dev@acme.test', password: PASSWORD })();
    assert.ok(E.isRight(signedIn));
    const secret = await valueOf(issueClientSecret(h.deps)(appId));
    const dump = await db.one(
      h.pool,
      t.type({ dump: t.string }),
      sql.unsafe`SELECT (SELECT string_agg(encode(secret_hash, 'escape'), '') FROM sessions)
                     || (SELECT string_agg(coalesce(encode(client_secret_hash, 'escape'), ''), '') FROM developer_apps) AS dump`,
    );
    assert.ok(!dump.dump.includes(signedIn.right.sessionToken));
    assert.ok(!dump.dump.includes(secret.clientSecret));
  });

  it('purges ended sessions, forgotten attempt counts and old machine tokens, and nothing else', async () => {
    await valueOf(issueClientSecret(h.deps)(appId)).then(async (secret) => {
      h.clock.shift(-10 * 86_400);
      const old = await clientCredentialsGrant(h.deps)({
        clientId: appId,
        clientSecret: secret.clientSecret,
      })();
      assert.ok(E.isRight(old));
      h.clock.reset();
    });
    const kept = await issue();
    await signIn(h.deps)({ email: 'dev@acme.test', password: 'wrong' })();
    const housekeeping = postgresHousekeeping(h.pool, testLogger(), {
      quietSeconds: 3600,
      intervalMs: 3_600_000,
      now: () => new Date(Date.now() + 2 * 86_400_000),
    });
    try {
      const purged = await housekeeping.purge();
      assert.ok(purged.tokens >= 1);
      assert.ok(purged.attempts >= 1);
      assert.ok(purged.sessions >= 1);
    } finally {
      housekeeping.stop();
    }
    assert.ok(O.isSome(await valueOf(h.deps.tokens.find(kept.record.id))));
  });

  it('pages token lists newest first with totals', async () => {
    const user = seeded.users.get('dev@acme.test')!;
    const total = (await valueOf(h.deps.tokens.list({ userId: user.id }, { page: 1, perPage: 100 }))).total;
    const first = await valueOf(h.deps.tokens.list({ userId: user.id }, { page: 1, perPage: 2 }));
    const second = await valueOf(h.deps.tokens.list({ userId: user.id }, { page: 2, perPage: 2 }));
    assert.equal(first.total, total);
    assert.equal(first.items.length, 2);
    assert.ok(first.items[0]!.createdAt >= first.items[1]!.createdAt);
    assert.ok(!second.items.some((s) => first.items.some((f) => f.id === s.id)));
  });
});
