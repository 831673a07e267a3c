import assert from 'node:assert/strict';
import request from 'supertest';
import { AccountSiteView, SessionAccessTokenView, SessionView } from '@esign/contracts';
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
import { is, pathsOf } from '../support/http-body.js';
import { valueOf } from '../support/port-task.js';

/** ADR 3050: an account admin creates a Site; their tokens reach it at once. */
describe('auth: an account admin creates Sites over HTTP (real Postgres)', () => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof listen>>;
  let check: ReturnType<typeof gatewayCheck>;

  before(async () => {
    h = await startHarness('auth_account_sites');
    server = await listen(h.callback);
    check = gatewayCheck(server.url, INTERNAL_SECRET);
    await seedAccount(h.deps, {
      sites: ['Production'],
      users: { 'owner@acme.test': ['Production'], 'member@acme.test': ['Production'] },
    });
    await valueOf(ensureSigningKey(h.deps));
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  const sessionOf = async (email: string) =>
    is(
      SessionView,
      (await request(h.callback).post('/v1.1/sessions').send({ email, password: PASSWORD }).expect(201)).body,
    ).session_token;
  const create = (session: string, body: object) =>
    request(h.callback).post('/v1.1/account/sites').set('Authorization', `Bearer ${session}`).send(body);

  it('creates the Site with the admin on it; the admin’s token reaches it at once', async () => {
    const owner = await sessionOf('owner@acme.test');
    const token = is(
      SessionAccessTokenView,
      (
        await request(h.callback)
          .post('/v1.1/sessions/current/access-token')
          .set('Authorization', `Bearer ${owner}`)
          .expect(201)
      ).body,
    ).access_token;
    const site = is(AccountSiteView, (await create(owner, { name: 'Development' }).expect(201)).body);
    assert.equal(site.name, 'Development');
    assert.equal(site.default_locale, null);
    assert.deepEqual(
      site.members.map((m) => m.email),
      ['owner@acme.test'],
    );
    assert.equal((await check(`Bearer ${token}`, site.id)).status, 200, 'the token made before reaches it');
  });

  it('refuses a taken name, a bad name and a non-admin, naming the field, and makes nothing', async () => {
    const owner = await sessionOf('owner@acme.test');
    const taken = await create(owner, { name: 'Production' }).expect(409);
    assert.equal(taken.body.code, 'site_name_taken');
    assert.deepEqual(pathsOf(taken.body), ['name']);
    for (const name of ['', '   ', 'a\u0007b', 'x'.repeat(201)])
      assert.deepEqual(
        pathsOf((await create(owner, { name }).expect(422)).body),
        ['name'],
        JSON.stringify(name),
      );
    assert.deepEqual(pathsOf((await create(owner, { name: 'QA', extra: 1 }).expect(422)).body), ['extra']);
    const member = await sessionOf('member@acme.test');
    assert.equal((await create(member, { name: 'Mine' }).expect(403)).body.code, 'account_admin_required');
    await request(h.callback).post('/v1.1/account/sites').send({ name: 'Anon' }).expect(401);
    const sites = await request(h.callback)
      .get('/v1.1/account/sites')
      .set('Authorization', `Bearer ${owner}`)
      .expect(200);
    assert.deepEqual(
      (sites.body as { data: { name: string }[] }).data.map((s) => s.name),
      ['Production', 'Development'],
    );
  });
});
