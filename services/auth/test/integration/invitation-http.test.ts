import assert from 'node:assert/strict';
import request from 'supertest';
import * as t from 'io-ts';
import { InvitationAccepted, UserInvited } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { testLogger } from '@esign/testing';
import { postgresHousekeeping } from '../../src/adapters/postgres/postgres-housekeeping.js';
import { PASSWORD, seedAccount, signedInWithApp, startHarness, type Harness } from '../support/harness.js';
import { pathsOf } from '../support/http-body.js';

const INVITEE_PASSWORD = 'the invitee’s own passphrase';

interface Listed {
  readonly id: string;
  readonly email: string;
}

describe('auth: invitations to join an account over HTTP (real Postgres, the outbox)', () => {
  let h: Harness;
  let admin: string;
  let member: string;
  let sites: Map<string, { id: number }>;
  let otherSite: number;

  before(async () => {
    h = await startHarness('auth_invitations');
    const acme = await seedAccount(h.deps, {
      sites: ['Production', 'Development'],
      users: { 'admin@acme.test': ['Production'], 'member@acme.test': ['Production'] },
    });
    sites = acme.sites;
    const globex = await seedAccount(h.deps, {
      name: 'Globex',
      sites: ['Globex HQ'],
      users: { 'boss@globex.test': ['Globex HQ'] },
    });
    otherSite = globex.sites.get('Globex HQ')!.id;
    admin = (await signedInWithApp(h.deps, 'admin@acme.test')).sessionToken;
    member = (await signedInWithApp(h.deps, 'member@acme.test')).sessionToken;
  });
  after(() => h.close());

  const invite = (body: object, session = admin) =>
    request(h.callback)
      .post('/v1.1/account/invitations')
      .set('Authorization', `Bearer ${session}`)
      .send(body);
  const list = () =>
    request(h.callback).get('/v1.1/account/invitations').set('Authorization', `Bearer ${admin}`).expect(200);
  const revoke = (id: string) =>
    request(h.callback).delete(`/v1.1/account/invitations/${id}`).set('Authorization', `Bearer ${admin}`);
  const accept = (body: object) => request(h.callback).post('/v1.1/invitations/accept').send(body);
  const lastToken = async () => {
    const rows = await db.any(
      h.pool,
      t.type({ envelope: t.unknown }),
      sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.user_invited' ORDER BY created_at DESC, id LIMIT 1`,
    );
    const event = rows[0]?.envelope;
    assert.ok(UserInvited.is(event), JSON.stringify(event));
    assert.match(
      event.data.accept_url,
      /^http:\/\/localhost:8080\/app\/accept-invitation\?token=inv_[A-Za-z0-9_-]{43}$/,
    );
    return new URL(event.data.accept_url).searchParams.get('token')!;
  };

  it('invites, lists, and the invitee joins the account on the Sites chosen and signs in', async () => {
    const production = sites.get('Production')!.id;
    const made = await invite({ email: 'Ada@Example.test', site_ids: [production] }).expect(201);
    assert.deepEqual(Object.keys(made.body as object).sort(), [
      'admin',
      'created_at',
      'email',
      'expires_at',
      'id',
      'invited_by',
      'site_ids',
    ]);
    assert.equal(made.body.email, 'ada@example.test');
    assert.equal(made.body.invited_by, 'admin@acme.test');
    assert.equal(made.body.admin, false, 'a member unless asked');
    assert.deepEqual(made.body.site_ids, [production]);
    assert.deepEqual(
      ((await list()).body.data as Listed[]).map((i) => i.id),
      [made.body.id],
    );
    const token = await lastToken();
    const stored = await db.one(
      h.pool,
      t.type({ n: t.number }),
      sql.unsafe`SELECT count(*)::int AS n FROM invitations WHERE token_hash = sha256(convert_to(${token}, 'UTF8'))`,
    );
    assert.equal(stored.n, 1, 'only the token’s SHA-256 is kept');

    const weak = await accept({ token, password: 'short' }).expect(422);
    assert.equal(weak.body.code, 'weak_password');
    assert.deepEqual(weak.body.errors, [{ path: 'password', message: 'must be at least 12 characters' }]);
    const joined = await accept({ token, password: INVITEE_PASSWORD }).expect(201);
    assert.deepEqual(joined.body.account.name, 'Acme');
    assert.deepEqual(joined.body.user, { id: joined.body.user.id, email: 'ada@example.test', admin: false });
    assert.deepEqual(joined.body.site_ids, [production]);

    const session = (
      await request(h.callback)
        .post('/v1.1/sessions')
        .send({ email: 'ada@example.test', password: INVITEE_PASSWORD })
        .expect(201)
    ).body.session_token as string;
    const current = await request(h.callback)
      .get('/v1.1/sessions/current')
      .set('Authorization', `Bearer ${session}`)
      .expect(200);
    assert.equal(current.body.account_admin, false);
    assert.deepEqual(
      (current.body as { sites: { name: string }[] }).sites.map((s) => s.name),
      ['Production'],
    );

    const again = await accept({ token, password: INVITEE_PASSWORD }).expect(400);
    assert.match(String(again.headers['content-type']), /^application\/problem\+json/);
    assert.equal(again.body.code, 'invalid_invitation_token');
    assert.deepEqual(again.body.errors, [{ path: 'token', message: 'is unknown, used or expired' }]);
    assert.deepEqual((await list()).body.data, []);
    const told = await db.any(
      h.pool,
      t.type({ envelope: t.unknown }),
      sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.invitation_accepted'`,
    );
    assert.deepEqual(
      told.map((row) => (InvitationAccepted.is(row.envelope) ? row.envelope.data : row.envelope)),
      [{ email: 'admin@acme.test', account_name: 'Acme', joined: 'ada@example.test', admin: false }],
      'the inviting admin is told, in the acceptance’s transaction',
    );
  });

  it('refuses what it must, by field, and writes nothing', async () => {
    const before = (await list()).body.total_count as number;
    const taken = await invite({ email: 'member@acme.test' }).expect(409);
    assert.equal(taken.body.code, 'already_account_user');
    assert.deepEqual(taken.body.errors, [
      { path: 'email', message: 'is the address of a user of your account' },
    ]);
    const foreign = await invite({ email: 'bob@example.test', site_ids: [otherSite] }).expect(422);
    assert.equal(foreign.body.code, 'unknown_sites');
    assert.deepEqual(pathsOf(foreign.body), ['site_ids']);
    const twice = await invite({ email: 'bob@example.test', site_ids: [1, 1] }).expect(422);
    assert.deepEqual(pathsOf(twice.body), ['site_ids']);
    for (const [body, path] of [
      [{ email: 'not-an-address' }, 'email'],
      [{ email: 'bob@example.test', sites: [] }, 'sites'],
    ] as const) {
      const bad = await invite(body).expect(422);
      assert.deepEqual(pathsOf(bad.body), [path]);
    }
    const notAdmin = await invite({ email: 'bob@example.test' }, member).expect(403);
    assert.equal(notAdmin.body.code, 'account_admin_required');
    await request(h.callback)
      .post('/v1.1/account/invitations')
      .send({ email: 'bob@example.test' })
      .expect(401);
    for (const [body, path] of [
      [{ token: '', password: INVITEE_PASSWORD }, 'token'],
      [{ token: 'inv_x', password: INVITEE_PASSWORD, extra: 1 }, 'extra'],
      [{ token: 'inv_x' }, 'password'],
    ] as const) {
      const bad = await accept(body).expect(422);
      assert.deepEqual(pathsOf(bad.body), [path]);
    }
    assert.equal((await list()).body.total_count, before);
    const outbox = await db.one(
      h.pool,
      t.type({ n: t.number }),
      sql.unsafe`SELECT count(*)::int AS n FROM outbox WHERE type = 'account.user_invited' AND envelope->'data'->>'email' = 'bob@example.test'`,
    );
    assert.equal(outbox.n, 0);
  });

  it('a user of another account is invited alike; accepting answers 409 email_taken and makes nothing', async () => {
    await invite({ email: 'boss@globex.test' }).expect(201);
    const taken = await accept({ token: await lastToken(), password: INVITEE_PASSWORD }).expect(409);
    assert.equal(taken.body.code, 'email_taken');
    const users = await db.one(
      h.pool,
      t.type({ n: t.number }),
      sql.unsafe`SELECT count(*)::int AS n FROM users WHERE email = 'boss@globex.test'`,
    );
    assert.equal(users.n, 1);
    await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email: 'boss@globex.test', password: PASSWORD })
      .expect(201);
  });

  it('inviting again replaces the link; revoking ends it at once; a foreign or malformed id is 404', async () => {
    const first = (await invite({ email: 'carol@example.test' }).expect(201)).body as { id: string };
    const oldToken = await lastToken();
    const second = (await invite({ email: 'carol@example.test' }).expect(201)).body as { id: string };
    const newToken = await lastToken();
    await accept({ token: oldToken, password: INVITEE_PASSWORD }).expect(400);
    assert.deepEqual(
      ((await list()).body.data as Listed[]).filter((i) => i.email === 'carol@example.test').map((i) => i.id),
      [second.id],
    );
    await revoke(second.id).expect(204);
    await revoke(second.id).expect(204);
    await revoke(first.id).expect(204);
    await accept({ token: newToken, password: INVITEE_PASSWORD }).expect(400);
    await revoke('not-a-uuid').expect(404);
    await revoke('00000000-0000-4000-8000-000000000000').expect(404);
  });

  it('housekeeping deletes invitations 30 days after they closed, and none sooner', async () => {
    const count = async () =>
      (await db.one(h.pool, t.type({ n: t.number }), sql.unsafe`SELECT count(*)::int AS n FROM invitations`))
        .n;
    const all = await count();
    assert.equal(all, 4, 'the invitations the tests above made');
    const day = 86_400_000;
    const at = (days: number) =>
      postgresHousekeeping(h.pool, testLogger(), {
        quietSeconds: 3600,
        intervalMs: 3_600_000,
        now: () => new Date(Date.now() + days * day),
      });
    const [soon, later] = [at(29), at(38)];
    try {
      assert.equal((await soon.purge()).invitations, 0, 'expired 22 days ago at most, ended 29');
      assert.equal((await later.purge()).invitations, all);
      assert.equal(await count(), 0);
    } finally {
      soon.stop();
      later.stop();
    }
  });
});
