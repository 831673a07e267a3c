import assert from 'node:assert/strict';
import request from 'supertest';
import { AccountUserView, SessionAccessTokenView, SessionView } from '@esign/contracts';
import { ensureSigningKey } from '../../src/application/ensure-signing-key.js';
import { gatewayCheck } from '../support/gateway-check.js';
import {
  INTERNAL_SECRET,
  listen,
  PASSWORD,
  seedAccount,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { valueOf } from '../support/port-task.js';
import { is, pathsOf } from '../support/http-body.js';

/** ADR 3040: an account admin disables a colleague who left, and enables them again. */
describe('auth: an account admin disables and enables users over HTTP (real Postgres)', () => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof listen>>;
  let check: ReturnType<typeof gatewayCheck>;
  let acme: Awaited<ReturnType<typeof seedAccount>>;
  let globex: Awaited<ReturnType<typeof seedAccount>>;

  before(async () => {
    h = await startHarness('auth_account_users');
    server = await listen(h.callback);
    check = gatewayCheck(server.url, INTERNAL_SECRET);
    acme = await seedAccount(h.deps, {
      sites: ['Production'],
      users: { 'owner@acme.test': ['Production'], 'leaver@acme.test': ['Production'] },
    });
    globex = await seedAccount(h.deps, { name: 'Globex', sites: [], users: { 'owner@globex.test': [] } });
    await valueOf(ensureSigningKey(h.deps));
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  const signIn = (email: string) =>
    request(h.callback).post('/v1.1/sessions').send({ email, password: PASSWORD });
  const sessionOf = async (email: string) =>
    is(SessionView, (await signIn(email).expect(201)).body).session_token;
  const patch = (session: string, userId: string, body: object) =>
    request(h.callback)
      .patch(`/v1.1/account/users/${userId}`)
      .set('Authorization', `Bearer ${session}`)
      .send(body);
  const idOf = (email: string) => acme.users.get(email)!.id;
  const production = () => acme.sites.get('Production')!.id;

  it('disabling ends the session and stops the token at once; enabling restores the token', async () => {
    const owner = await sessionOf('owner@acme.test');
    const leaver = await sessionOf('leaver@acme.test');
    const token = is(
      SessionAccessTokenView,
      (
        await request(h.callback)
          .post('/v1.1/sessions/current/access-token')
          .set('Authorization', `Bearer ${leaver}`)
          .expect(201)
      ).body,
    ).access_token;
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
    await request(h.callback)
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
      'disabled',
    ]);
    await patch(owner, globex.users.get('owner@globex.test')!.id, { disabled: true }).expect(404);
    await patch(owner, 'not-a-uuid', { disabled: true }).expect(404);
    const leaver = await sessionOf('leaver@acme.test');
    const notAdmin = await patch(leaver, idOf('owner@acme.test'), { disabled: true }).expect(403);
    assert.equal(notAdmin.body.code, 'account_admin_required');
    await request(h.callback)
      .patch(`/v1.1/account/users/${idOf('leaver@acme.test')}`)
      .send({ disabled: true })
      .expect(401);
    await sessionOf('owner@acme.test');
    await sessionOf('owner@globex.test');
  });
});
