import assert from 'node:assert/strict';
import request from 'supertest';
import * as t from 'io-ts';
import { PasswordChangedNotice, PasswordResetRequested } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { testLogger } from '@esign/testing';
import { postgresHousekeeping } from '../../src/adapters/postgres/postgres-housekeeping.js';
import { PASSWORD, seedAccount, startHarness, type Harness } from '../support/harness.js';

const NEW_PASSWORD = 'a new and longer passphrase';

describe('auth: a forgotten password over HTTP (real Postgres, the outbox)', () => {
  let h: Harness;

  before(async () => {
    h = await startHarness('auth_password_reset');
    await seedAccount(h.deps, { sites: ['Production'], users: { 'dev@acme.test': ['Production'] } });
  });
  after(() => h.close());

  const outbox = async () =>
    (
      await db.any(
        h.pool,
        t.type({ type: t.string, envelope: t.unknown }),
        sql.unsafe`SELECT type, envelope FROM outbox WHERE type = 'account.password_reset_requested' ORDER BY created_at, id`,
      )
    ).map((row) => {
      assert.ok(PasswordResetRequested.is(row.envelope), JSON.stringify(row.envelope));
      return row.envelope;
    });
  const ask = (email: string) => request(h.callback).post('/v1.1/password-resets').send({ email });
  const confirm = (body: object) => request(h.callback).post('/v1.1/password-resets/confirm').send(body);
  const signIn = (password: string) =>
    request(h.callback).post('/v1.1/sessions').send({ email: 'dev@acme.test', password });

  it('answers 202 alike for a user and an unknown address; only the user’s link is written to the outbox', async () => {
    const known = await ask('Dev@Acme.test').expect(202);
    const unknown = await ask('nobody@acme.test').expect(202);
    assert.deepEqual(known.body, { expires_in: 1800 });
    assert.deepEqual(unknown.body, known.body);
    const events = await outbox();
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.email, 'dev@acme.test');
    assert.match(
      events[0]!.data.reset_url,
      /^http:\/\/localhost:8080\/app\/reset-password\?token=prt_[A-Za-z0-9_-]{43}$/,
    );
    const stored = await db.one(
      h.pool,
      t.type({ n: t.number }),
      sql.unsafe`SELECT count(*)::int AS n FROM password_resets WHERE ended_at IS NULL`,
    );
    assert.equal(stored.n, 1);
  });

  it('sets the new password with the link once, ending every session; the link then answers 400 naming token', async () => {
    const session = (await signIn(PASSWORD).expect(201)).body.session_token as string;
    const token = new URL((await outbox()).at(-1)!.data.reset_url).searchParams.get('token')!;
    const weak = await confirm({ token, new_password: 'short' }).expect(422);
    assert.equal(weak.body.code, 'weak_password');
    assert.deepEqual(weak.body.errors, [{ path: 'new_password', message: 'must be at least 12 characters' }]);
    const changed = await confirm({ token, new_password: NEW_PASSWORD }).expect(200);
    assert.deepEqual(changed.body, { sessions_ended: 1, tokens_revoked: 0, client_secrets_removed: 0 });
    await request(h.callback)
      .get('/v1.1/sessions/current')
      .set('Authorization', `Bearer ${session}`)
      .expect(401);
    await signIn(NEW_PASSWORD).expect(201);
    await signIn(PASSWORD).expect(401);
    const notices = await db.any(
      h.pool,
      t.type({ envelope: t.unknown }),
      sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.password_changed'`,
    );
    assert.deepEqual(
      notices.map((n) => (PasswordChangedNotice.is(n.envelope) ? n.envelope.data : n.envelope)),
      [{ email: 'dev@acme.test', by: 'reset_link' }],
      'the user is told, in the same transaction',
    );
    const again = await confirm({ token, new_password: 'yet another long passphrase' }).expect(400);
    assert.match(String(again.headers['content-type']), /^application\/problem\+json/);
    assert.equal(again.body.code, 'invalid_reset_token');
    assert.deepEqual(again.body.errors, [{ path: 'token', message: 'is unknown, used or expired' }]);
  });

  it('names each bad or unknown field of both bodies', async () => {
    const bad = await ask('not-an-address').expect(422);
    assert.deepEqual(
      (bad.body.errors as { path: string }[]).map((e) => e.path),
      ['email'],
    );
    const missing = await confirm({ new_password: NEW_PASSWORD }).expect(422);
    assert.deepEqual(
      (missing.body.errors as { path: string }[]).map((e) => e.path),
      ['token'],
    );
    const unknown = await confirm({ token: 'prt_x', new_password: NEW_PASSWORD, password: 'x' }).expect(422);
    assert.deepEqual(
      (unknown.body.errors as { path: string }[]).map((e) => e.path),
      ['password'],
    );
  });

  it('deletes links a day after they were made, and no newer one', async () => {
    const count = async () =>
      (
        await db.one(
          h.pool,
          t.type({ n: t.number }),
          sql.unsafe`SELECT count(*)::int AS n FROM password_resets`,
        )
      ).n;
    const before = await count();
    assert.ok(before >= 1);
    const today = postgresHousekeeping(h.pool, testLogger(), { quietSeconds: 3600, intervalMs: 3_600_000 });
    const later = postgresHousekeeping(h.pool, testLogger(), {
      quietSeconds: 3600,
      intervalMs: 3_600_000,
      now: () => new Date(Date.now() + 2 * 86_400_000),
    });
    try {
      assert.equal((await today.purge()).passwordResets, 0);
      assert.equal((await later.purge()).passwordResets, before);
      assert.equal(await count(), 0);
    } finally {
      today.stop();
      later.stop();
    }
  });
});
