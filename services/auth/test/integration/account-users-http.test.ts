import assert from 'node:assert/strict';
import request from 'supertest';
import * as tt from 'io-ts';
import { AccessChanged, AccountUserList, AccountUserView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { PASSWORD, seedAccount } from '../support/harness.js';
import { is, pathsOf } from '../support/http-body.js';
import { introspectedHarness } from '../support/introspected-harness.js';

/**
 * ADR 3040: an account admin disables a colleague who left, and enables them again.
 * ADR 3060: they make a colleague admin, and the account always keeps one.
 */
describe('auth: an account admin disables and enables users over HTTP (real Postgres)', () => {
  const t = introspectedHarness('auth_account_users', async (deps) => ({
    acme: await seedAccount(deps, {
      sites: ['Production'],
      users: { 'owner@acme.test': ['Production'], 'leaver@acme.test': ['Production'] },
    }),
    globex: await seedAccount(deps, { name: 'Globex', sites: [], users: { 'owner@globex.test': [] } }),
  }));
  const { sessionOf, check } = t;
  const signIn = (email: string) =>
    request(t.harness().callback).post('/v1.1/sessions').send({ email, password: PASSWORD });
  const patch = (session: string, userId: string, body: object) =>
    request(t.harness().callback)
      .patch(`/v1.1/account/users/${userId}`)
      .set('Authorization', `Bearer ${session}`)
      .send(body);
  const idOf = (email: string) => t.seeded().acme.users.get(email)!.id;
  const production = () => t.seeded().acme.sites.get('Production')!.id;

  it('disabling ends the session and stops the token at once; enabling restores the token', async () => {
    const owner = await sessionOf('owner@acme.test');
    const leaver = await sessionOf('leaver@acme.test');
    const token = await t.accessTokenOf(leaver);
    assert.equal((await check(`Bearer ${token}`, production())).status, 200);

    const disabled = is(
      AccountUserView,
      (await patch(owner, idOf('leaver@acme.test'), { disabled: true }).expect(200)).body,
    );
    assert.equal(disabled.email, 'leaver@acme.test');
    assert.ok(disabled.disabled_at !== null);
    assert.deepEqual(disabled.site_ids, [production()]);
    assert.equal(
      (await check(`Bearer ${token}`, production())).status,
      401,
      'the token stops at the next introspection',
    );
    await request(t.harness().callback)
      .get('/v1.1/sessions/current')
      .set('Authorization', `Bearer ${leaver}`)
      .expect(401);
    assert.equal((await signIn('leaver@acme.test').expect(403)).body.code, 'user_disabled');
    const again = is(
      AccountUserView,
      (await patch(owner, idOf('leaver@acme.test'), { disabled: true }).expect(200)).body,
    );
    assert.equal(again.disabled_at, disabled.disabled_at, 'disabling twice keeps the first time');

    const enabled = is(
      AccountUserView,
      (await patch(owner, idOf('leaver@acme.test'), { disabled: false }).expect(200)).body,
    );
    assert.equal(enabled.disabled_at, null);
    await sessionOf('leaver@acme.test');
  });

  it('refuses what it must, naming the field, and changes nothing', async () => {
    const owner = await sessionOf('owner@acme.test');
    const self = await patch(owner, idOf('owner@acme.test'), { disabled: true }).expect(409);
    assert.equal(self.body.code, 'cannot_disable_yourself');
    assert.deepEqual(pathsOf(self.body), ['disabled']);
    assert.deepEqual(
      pathsOf((await patch(owner, idOf('leaver@acme.test'), { disabled: 'yes' }).expect(422)).body),
      ['disabled'],
    );
    assert.deepEqual(pathsOf((await patch(owner, idOf('leaver@acme.test'), {}).expect(422)).body), [
      '(body)',
    ]);
    assert.deepEqual(pathsOf((await patch(owner, idOf('leaver@acme.test'), { admin: 1 }).expect(422)).body), [
      'admin',
    ]);
    await patch(owner, t.seeded().globex.users.get('owner@globex.test')!.id, { disabled: true }).expect(404);
    await patch(owner, 'not-a-uuid', { disabled: true }).expect(404);
    const leaver = await sessionOf('leaver@acme.test');
    const notAdmin = await patch(leaver, idOf('owner@acme.test'), { disabled: true }).expect(403);
    assert.equal(notAdmin.body.code, 'account_admin_required');
    await request(t.harness().callback)
      .patch(`/v1.1/account/users/${idOf('leaver@acme.test')}`)
      .send({ disabled: true })
      .expect(401);
    await sessionOf('owner@acme.test');
    await sessionOf('owner@globex.test');
  });

  it('an admin makes a colleague admin; the only one cannot step down; two demoting each other keep one', async () => {
    const owner = await sessionOf('owner@acme.test');
    const leaver = await sessionOf('leaver@acme.test');
    const users = () =>
      request(t.harness().callback).get('/v1.1/account/users').set('Authorization', `Bearer ${leaver}`);
    await users().expect(403);

    const lone = await patch(owner, idOf('owner@acme.test'), { admin: false }).expect(409);
    assert.equal(lone.body.code, 'last_admin');
    assert.deepEqual(pathsOf(lone.body), ['admin']);

    const promoted = is(
      AccountUserView,
      (await patch(owner, idOf('leaver@acme.test'), { admin: true }).expect(200)).body,
    );
    assert.equal(promoted.admin, true);
    const told = await db.any(
      t.harness().pool,
      tt.type({ envelope: tt.unknown }),
      sql.unsafe`
      SELECT envelope FROM outbox
      WHERE type = 'account.access_changed' AND envelope->'data'->>'change' = 'made_admin'
      ORDER BY envelope->'data'->>'email' DESC`,
    );
    assert.deepEqual(
      told.map((row) => (AccessChanged.is(row.envelope) ? row.envelope.data : row.envelope)),
      ['owner@acme.test', 'leaver@acme.test'].map((email) => ({
        email,
        account_name: 'Acme',
        change: 'made_admin',
        user: 'leaver@acme.test',
        by: 'owner@acme.test',
      })),
      'every admin and the user are told, in the change’s transaction; the refusal before wrote nothing',
    );
    const listed = is(AccountUserList, (await users().expect(200)).body).data;
    assert.deepEqual(
      listed.map((u) => [u.email, u.admin]),
      [
        ['owner@acme.test', true],
        ['leaver@acme.test', true],
      ],
      'the session made before is an admin’s now',
    );

    // Each demotes the other at the same moment: the account lock decides them one after the other.
    const answers = await Promise.all([
      patch(owner, idOf('leaver@acme.test'), { admin: false }),
      patch(leaver, idOf('owner@acme.test'), { admin: false }),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 403]);
    const winner = answers[0].status === 200 ? owner : leaver;
    const after = await request(t.harness().callback)
      .get('/v1.1/account/users')
      .set('Authorization', `Bearer ${winner}`)
      .expect(200);
    const admins = is(AccountUserList, after.body).data.filter((u) => u.admin);
    assert.equal(admins.length, 1, 'one admin is left');
  });
});
