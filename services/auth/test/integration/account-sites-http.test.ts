import assert from 'node:assert/strict';
import request from 'supertest';
import { decodeJwt } from 'jose';
import { AccountSiteView, AccountView, TokenIntrospection } from '@esign/contracts';
import { INTERNAL_SECRET, seedAccount } from '../support/harness.js';
import { is, pathsOf } from '../support/http-body.js';
import { introspectedHarness } from '../support/introspected-harness.js';

/** ADR 3050: an account admin creates a Site; their tokens reach it at once. ADR 3070: and renames it. */
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

  it('renames a Site: the introspection of a token made before carries the new name', async () => {
    const owner = await sessionOf('owner@acme.test');
    const token = await t.accessTokenOf(owner);
    const production = t.seeded().sites.get('Production')!.id;
    const patch = (session: string, siteId: number, body: object) =>
      request(t.harness().callback)
        .patch(`/v1.1/account/sites/${siteId}`)
        .set('Authorization', `Bearer ${session}`)
        .send(body);
    const renamed = is(
      AccountSiteView,
      (await patch(owner, production, { name: ' Live ' }).expect(200)).body,
    );
    assert.deepEqual([renamed.id, renamed.name, renamed.default_locale], [production, 'Live', null]);
    assert.equal((await check(`Bearer ${token}`, production)).status, 200);
    const introspected = await request(t.harness().callback)
      .post('/internal/introspect')
      .set('Authorization', `Bearer ${INTERNAL_SECRET}`)
      .send({ token_id: String(decodeJwt(token).jti) })
      .expect(200);
    const answer = is(TokenIntrospection, introspected.body);
    const sites = answer.active ? answer.sites : [];
    assert.equal(sites.find((s) => s.id === production)?.name, 'Live', 'what the gateway passes on');

    const taken = await patch(owner, production, { name: 'Development' }).expect(409);
    assert.equal(taken.body.code, 'site_name_taken');
    assert.deepEqual(pathsOf(taken.body), ['name']);
    assert.deepEqual(pathsOf((await patch(owner, production, { name: ' ' }).expect(422)).body), ['name']);
    assert.deepEqual(pathsOf((await patch(owner, production, {}).expect(422)).body), ['(body)']);
    const member = await sessionOf('member@acme.test');
    assert.equal(
      (await patch(member, production, { name: 'Mine' }).expect(403)).body.code,
      'account_admin_required',
    );
    const both = is(
      AccountSiteView,
      (await patch(owner, production, { name: 'Production', default_locale: 'de' }).expect(200)).body,
    );
    assert.deepEqual([both.name, both.default_locale], ['Production', 'de']);
  });

  it('shows the account to any of its users; an admin renames it (ADR 3080), naming the field when refused', async () => {
    const as = (session: string) => ({
      get: () => request(t.harness().callback).get('/v1.1/account').set('Authorization', `Bearer ${session}`),
      patch: (body: object) =>
        request(t.harness().callback)
          .patch('/v1.1/account')
          .set('Authorization', `Bearer ${session}`)
          .send(body),
    });
    const owner = as(await sessionOf('owner@acme.test'));
    const member = as(await sessionOf('member@acme.test'));
    const seen = is(AccountView, (await member.get().expect(200)).body);
    assert.deepEqual([seen.name, seen.api_access, seen.admins], ['Acme', true, ['owner@acme.test']]);
    const renamed = is(AccountView, (await owner.patch({ name: ' Acme Holdings ' }).expect(200)).body);
    assert.deepEqual([renamed.id, renamed.name], [seen.id, 'Acme Holdings']);
    for (const name of ['', '  ', 'a\u0000b', 'x'.repeat(201), 7])
      assert.deepEqual(
        pathsOf((await owner.patch({ name }).expect(422)).body),
        ['name'],
        JSON.stringify(name),
      );
    assert.deepEqual(pathsOf((await owner.patch({}).expect(422)).body), ['name']);
    assert.equal((await member.patch({ name: 'Mine' }).expect(403)).body.code, 'account_admin_required');
    await request(t.harness().callback).get('/v1.1/account').expect(401);
    assert.equal(is(AccountView, (await member.get().expect(200)).body).name, 'Acme Holdings');
  });
});
