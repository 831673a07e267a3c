import assert from 'node:assert/strict';
import pg from 'pg';
import request from 'supertest';
import * as t from 'io-ts';
import { UserInvited } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { seedAccount, signedInWithApp, startHarness, type Harness } from '../support/harness.js';
import { pathsOf } from '../support/http-body.js';

const INVITEE_PASSWORD = 'the invitee’s own passphrase';

/** ADR 3090: an account admin invites an admin (real Postgres, the outbox, the account's lock). */
describe('auth: invitations that make an admin, over HTTP (real Postgres)', () => {
  let h: Harness;
  let owner: string;
  let partner: string;
  let ownerId: string;

  before(async () => {
    h = await startHarness('auth_admin_invitations');
    const acme = await seedAccount(h.deps, {
      sites: ['Production'],
      users: { 'owner@acme.test': ['Production'], 'partner@acme.test': ['Production'] },
    });
    ownerId = acme.users.get('owner@acme.test')!.id;
    owner = (await signedInWithApp(h.deps, 'owner@acme.test')).sessionToken;
    partner = (await signedInWithApp(h.deps, 'partner@acme.test')).sessionToken;
    await setAdmin(owner, acme.users.get('partner@acme.test')!.id, true).expect(200);
  });
  after(() => h.close());

  const setAdmin = (session: string, userId: string, admin: boolean) =>
    request(h.callback)
      .patch(`/v1.1/account/users/${userId}`)
      .set('Authorization', `Bearer ${session}`)
      .send({ admin });
  const invite = (body: object, session = owner) =>
    request(h.callback)
      .post('/v1.1/account/invitations')
      .set('Authorization', `Bearer ${session}`)
      .send(body);
  const listed = async (session: string) =>
    (
      (
        await request(h.callback)
          .get('/v1.1/account/invitations')
          .set('Authorization', `Bearer ${session}`)
          .expect(200)
      ).body.data as { email: string; admin: boolean }[]
    ).map((i) => [i.email, i.admin]);
  const accept = (token: string) =>
    request(h.callback).post('/v1.1/invitations/accept').send({ token, password: INVITEE_PASSWORD });
  const outboxOf = async (type: string) =>
    (
      await db.any(
        h.pool,
        t.type({ envelope: t.type({ data: t.UnknownRecord }) }),
        sql.unsafe`SELECT envelope FROM outbox WHERE type = ${type} ORDER BY created_at, id`,
      )
    ).map((row) => row.envelope.data);
  const tokenFor = async (email: string) => {
    const rows = await db.any(
      h.pool,
      t.type({ envelope: t.unknown }),
      sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.user_invited'
                 AND envelope->'data'->>'email' = ${email} ORDER BY created_at DESC, id LIMIT 1`,
    );
    const event = rows[0]?.envelope;
    assert.ok(UserInvited.is(event), JSON.stringify(event));
    return { admin: event.data.admin, token: new URL(event.data.accept_url).searchParams.get('token')! };
  };
  const userCount = async (email: string) =>
    (
      await db.one(
        h.pool,
        t.type({ n: t.number }),
        sql.unsafe`SELECT count(*)::int AS n FROM users WHERE email = ${email}`,
      )
    ).n;

  it('the invitee joins as an admin; the inviter and every other enabled admin are told', async () => {
    const made = await invite({ email: 'ada@example.test', admin: true }).expect(201);
    assert.equal(made.body.admin, true);
    assert.deepEqual(await listed(partner), [['ada@example.test', true]]);
    const { admin, token } = await tokenFor('ada@example.test');
    assert.equal(admin, true, 'the e-mail is told it makes an admin');

    const joined = await accept(token).expect(201);
    assert.equal(joined.body.user.admin, true);
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
    assert.equal(current.body.account_admin, true);
    assert.deepEqual(await outboxOf('account.invitation_accepted'), [
      { email: 'owner@acme.test', account_name: 'Acme', joined: 'ada@example.test', admin: true },
    ]);
    assert.deepEqual(
      (await outboxOf('account.access_changed')).filter((d) => d.change === 'joined_as_admin'),
      [
        {
          email: 'partner@acme.test',
          account_name: 'Acme',
          change: 'joined_as_admin',
          user: 'ada@example.test',
          by: 'owner@acme.test',
        },
      ],
    );
  });

  it('`admin` must be a boolean, named when it is not', async () => {
    const bad = await invite({ email: 'bob@example.test', admin: 'yes' }).expect(422);
    assert.deepEqual(pathsOf(bad.body), ['admin']);
  });

  it('stops working when its sender is no longer an admin, even one waiting on the account’s lock', async () => {
    await invite({ email: 'eve@example.test', admin: true }).expect(201);
    const { token } = await tokenFor('eve@example.test');

    // Another admin's change to the owner holds the account's lock, uncommitted, while the
    // invitee accepts: acceptance waits for it, then sees the owner is no longer an admin.
    const other = new pg.Client({ connectionString: h.database.url });
    await other.connect();
    let accepted: request.Response;
    try {
      await other.query('BEGIN');
      await other.query(
        'SELECT 1 FROM accounts a JOIN users u ON u.account_id = a.id WHERE u.id = $1 FOR UPDATE OF a',
        [ownerId],
      );
      await other.query('UPDATE users SET account_admin = false WHERE id = $1', [ownerId]);
      const pending = accept(token).then((response) => response);
      await waitForLockWait();
      await other.query('COMMIT');
      accepted = await pending;
    } finally {
      await other.end();
    }
    assert.equal(accepted.status, 400);
    assert.equal(accepted.body.code, 'invalid_invitation_token');
    assert.equal(await userCount('eve@example.test'), 0, 'nobody was made');
    assert.deepEqual(await listed(partner), [], 'nor is it listed as open');

    // Its sender an admin again, it works again: it was never ended.
    await setAdmin(partner, ownerId, true).expect(200);
    assert.deepEqual(await listed(partner), [['eve@example.test', true]]);
    assert.equal((await accept(token).expect(201)).body.user.admin, true);
  });

  /** Until a query of this database waits on a lock (the acceptance, behind the account's). */
  const waitForLockWait = async () => {
    for (let tries = 0; tries < 500; tries += 1) {
      const waiting = await db.one(
        h.pool,
        t.type({ n: t.number }),
        sql.unsafe`SELECT count(*)::int AS n FROM pg_stat_activity
                   WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (waiting.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail('the acceptance never waited for the account’s lock');
  };
});
