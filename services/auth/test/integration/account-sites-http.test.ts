import assert from 'node:assert/strict';
import request from 'supertest';
import { AccountSiteView } from '@esign/contracts';
import { seedAccount } from '../support/harness.js';
import { is, pathsOf } from '../support/http-body.js';
import { introspectedHarness } from '../support/introspected-harness.js';

/** ADR 3050: an account admin creates a Site; their tokens reach it at once. */
describe('auth: an account admin creates Sites over HTTP (real Postgres)', () => {
  const t = introspectedHarness('auth_account_sites', (deps) =>
    seedAccount(deps, {
      sites: ['Production'],
      users: { 'owner@acme.test': ['Production'], 'member@acme.test': ['Production'] },
    }),
  );
  const { sessionOf, check } = t;
  const create = (session: string, body: object) =>
    request(t.harness().callback)
      .post('/v1.1/account/sites')
      .set('Authorization', `Bearer ${session}`)
      .send(body);

  it('creates the Site with the admin on it; the admin’s token reaches it at once', async () => {
    const owner = await sessionOf('owner@acme.test');
    const token = await t.accessTokenOf(owner);
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
    await request(t.harness().callback).post('/v1.1/account/sites').send({ name: 'Anon' }).expect(401);
    const sites = await request(t.harness().callback)
      .get('/v1.1/account/sites')
      .set('Authorization', `Bearer ${owner}`)
      .expect(200);
    assert.deepEqual(
      (sites.body as { data: { name: string }[] }).data.map((s) => s.name),
      ['Production', 'Development'],
    );
  });
});
