import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import request from 'supertest';
import {
  AccountSiteList,
  AccountSiteView,
  AccountUserList,
  CurrentSessionView,
  SessionAccessTokenView,
  SessionView,
  SiteMemberView,
} from '@esign/contracts';
import { ensureSigningKey } from '../../src/application/ensure-signing-key.js';
import { rotateSigningKey } from '../../src/application/signing-keys.js';
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
import { is } from '../support/http-body.js';

/**
 * What the web application needs of auth, added to the public API for every client: an
 * access token for the signed-in session (ends with it), and account admins managing who
 * is on which Site.
 */
describe('auth: session access tokens and account administration', () => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof listen>>;
  let check: ReturnType<typeof gatewayCheck>;
  let acme: Awaited<ReturnType<typeof seedAccount>>;
  let globex: Awaited<ReturnType<typeof seedAccount>>;

  before(async () => {
    h = await startHarness('auth_session_account');
    server = await listen(h.callback);
    check = gatewayCheck(server.url, INTERNAL_SECRET);
    // The first user made in an account administers it.
    acme = await seedAccount(h.deps, {
      sites: ['Production', 'Development'],
      users: { 'owner@acme.test': ['Production', 'Development'], 'bot@acme.test': [] },
    });
    globex = await seedAccount(h.deps, {
      name: 'Globex',
      sites: ['Globex main'],
      users: { 'owner@globex.test': ['Globex main'] },
    });
    await valueOf(ensureSigningKey(h.deps));
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  const signIn = async (email: string) =>
    is(
      SessionView,
      (await request(h.callback).post('/v1.1/sessions').send({ email, password: PASSWORD }).expect(201)).body,
    ).session_token;
  const as = (session: string) => ({
    get: (path: string) => request(h.callback).get(path).set('Authorization', `Bearer ${session}`),
    post: (path: string) => request(h.callback).post(path).set('Authorization', `Bearer ${session}`),
    delete: (path: string) => request(h.callback).delete(path).set('Authorization', `Bearer ${session}`),
  });
  const site = (name: string) => acme.sites.get(name)!.id;

  it("exchanges a session for an access token that reaches the user's Sites and ends with the session", async () => {
    const session = await signIn('owner@acme.test');
    const answer = await as(session).post('/v1.1/sessions/current/access-token').expect(201);
    const issued = is(SessionAccessTokenView, answer.body);
    assert.equal(answer.headers['cache-control'], 'no-store');
    const claims = decodeJwt(issued.access_token);
    assert.equal(claims.exp, Date.parse(issued.expires_at) / 1000, 'the token ends when the session does');
    assert.ok(issued.expires_in > 3000 && issued.expires_in <= 3600, String(issued.expires_in));
    const bearer = `Bearer ${issued.access_token}`;
    assert.equal((await check(bearer, site('Production'))).status, 200);
    assert.equal((await check(bearer, globex.sites.get('Globex main')!.id)).status, 403);
    // Never listed with the user's tokens: it belongs to no app.
    const tokens = await as(session).get('/v1.1/tokens').expect(200);
    assert.equal((tokens.body as { total_count: number }).total_count, 0);
    await as(session).delete('/v1.1/sessions/current').expect(204);
    assert.deepEqual(await check(bearer, site('Production')), { status: 401, reason: 'inactive' });
    await as(session).post('/v1.1/sessions/current/access-token').expect(401);
  });

  it('stops a session token when the key that signed it is withdrawn, and refuses a made-up session id', async () => {
    const session = await signIn('owner@acme.test');
    const issued = is(
      SessionAccessTokenView,
      (await as(session).post('/v1.1/sessions/current/access-token').expect(201)).body,
    );
    const introspect = (tokenId: string) =>
      request(h.callback)
        .post('/internal/introspect')
        .set('Authorization', `Bearer ${INTERNAL_SECRET}`)
        .send({ token_id: tokenId })
        .expect(200);
    const jti = String(decodeJwt(issued.access_token).jti);
    assert.match(jti, /^ses\.[0-9a-f-]{36}\.[A-Za-z0-9_-]+$/);
    assert.equal((await introspect(jti)).body.active, true);
    assert.equal((await introspect(jti)).body.token_id, jti, 'the answer names the token asked about');
    const [, id] = jti.split('.');
    assert.equal((await introspect(`ses.${id}.not-a-key`)).body.active, false);
    assert.equal((await introspect('ses.00000000-0000-4000-8000-000000000000.x')).body.active, false);
    await rotateSigningKey(h.deps)({ revokePrevious: true, activateInSeconds: 0 })();
    assert.equal((await introspect(jti)).body.active, false);
  });

  it('tells whether the signed-in user administers the account', async () => {
    const owner = is(
      CurrentSessionView,
      (
        await as(await signIn('owner@acme.test'))
          .get('/v1.1/sessions/current')
          .expect(200)
      ).body,
    );
    assert.equal(owner.account_admin, true);
    const bot = is(
      CurrentSessionView,
      (
        await as(await signIn('bot@acme.test'))
          .get('/v1.1/sessions/current')
          .expect(200)
      ).body,
    );
    assert.equal(bot.account_admin, false);
    assert.deepEqual(bot.sites, []);
  });

  it('lets an account admin add a user to a single Site and remove them; the token follows at once', async () => {
    const owner = await signIn('owner@acme.test');
    const bot = await signIn('bot@acme.test');
    const botToken = is(
      SessionAccessTokenView,
      (await as(bot).post('/v1.1/sessions/current/access-token').expect(201)).body,
    ).access_token;
    assert.equal((await check(`Bearer ${botToken}`, site('Development'))).status, 403);

    const added = await as(owner)
      .post(`/v1.1/account/sites/${site('Development')}/members`)
      .send({ email: 'BOT@acme.test' })
      .expect(201);
    assert.equal(is(SiteMemberView, added.body).email, 'bot@acme.test');
    await as(owner)
      .post(`/v1.1/account/sites/${site('Development')}/members`)
      .send({ email: 'bot@acme.test' })
      .expect(200);
    assert.equal((await check(`Bearer ${botToken}`, site('Development'))).status, 200);
    assert.equal((await check(`Bearer ${botToken}`, site('Production'))).status, 403, 'only that Site');

    const sites = is(AccountSiteList, (await as(owner).get('/v1.1/account/sites').expect(200)).body);
    assert.deepEqual(
      sites.data.map((s) => [s.name, s.members.map((m) => m.email).sort()]),
      [
        ['Production', ['owner@acme.test']],
        ['Development', ['bot@acme.test', 'owner@acme.test']],
      ],
    );
    const users = is(AccountUserList, (await as(owner).get('/v1.1/account/users').expect(200)).body);
    assert.deepEqual(users.data.find((u) => u.email === 'bot@acme.test')?.site_ids, [site('Development')]);

    const botId = acme.users.get('bot@acme.test')!.id;
    await as(owner)
      .delete(`/v1.1/account/sites/${site('Development')}/members/${botId}`)
      .expect(204);
    assert.equal((await check(`Bearer ${botToken}`, site('Development'))).status, 403);
  });

  it('refuses non-admins, other accounts and unknown addresses, naming the field', async () => {
    const owner = await signIn('owner@acme.test');
    const bot = await signIn('bot@acme.test');
    const refused = await as(bot).get('/v1.1/account/sites').expect(403);
    assert.equal(refused.body.code, 'account_admin_required');
    await as(bot)
      .post(`/v1.1/account/sites/${site('Production')}/members`)
      .send({ email: 'bot@acme.test' })
      .expect(403);
    const foreign = globex.sites.get('Globex main')!.id;
    await as(owner)
      .post(`/v1.1/account/sites/${foreign}/members`)
      .send({ email: 'bot@acme.test' })
      .expect(404);
    await as(owner).post('/v1.1/account/sites/007/members').send({ email: 'bot@acme.test' }).expect(404);
    const stranger = await as(owner)
      .post(`/v1.1/account/sites/${site('Production')}/members`)
      .send({ email: 'owner@globex.test' })
      .expect(422);
    assert.equal(stranger.body.code, 'not_account_user');
    assert.deepEqual(
      (stranger.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['email'],
    );
    const malformed = await as(owner)
      .post(`/v1.1/account/sites/${site('Production')}/members`)
      .send({ email: 'not an address' })
      .expect(422);
    assert.deepEqual(
      (malformed.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['email'],
    );
    await request(h.callback).get('/v1.1/account/sites').expect(401);
  });

  it('issue 23: sets a Site’s default locale (admins only, a BCP 47 tag, null clears) and the introspection carries it', async () => {
    const owner = await signIn('owner@acme.test');
    const patch = (session: string, siteId: number | string, body: unknown) =>
      request(h.callback)
        .patch(`/v1.1/account/sites/${siteId}`)
        .set('Authorization', `Bearer ${session}`)
        .send(body as object);
    const set = is(
      AccountSiteView,
      (await patch(owner, site('Production'), { default_locale: 'pt-br' }).expect(200)).body,
    );
    assert.equal(set.default_locale, 'pt-BR');
    assert.deepEqual(
      set.members.map((m) => m.email),
      ['owner@acme.test'],
    );
    const listed = is(AccountSiteList, (await as(owner).get('/v1.1/account/sites').expect(200)).body);
    assert.equal(listed.data.find((s) => s.id === site('Production'))?.default_locale, 'pt-BR');

    // What the gateway learns for a token of a member, and passes on to the services.
    const token = is(
      SessionAccessTokenView,
      (await as(owner).post('/v1.1/sessions/current/access-token').expect(201)).body,
    ).access_token;
    const introspected = await request(h.callback)
      .post('/internal/introspect')
      .set('Authorization', `Bearer ${INTERNAL_SECRET}`)
      .send({ token_id: String(decodeJwt(token).jti) })
      .expect(200);
    const sites = (introspected.body as { sites: { id: number; default_locale: string | null }[] }).sites;
    assert.equal(sites.find((s) => s.id === site('Production'))?.default_locale, 'pt-BR');
    assert.equal(sites.find((s) => s.id === site('Development'))?.default_locale, null);

    const bad = await patch(owner, site('Production'), { default_locale: 'portuguese' }).expect(422);
    assert.deepEqual(
      (bad.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['default_locale'],
    );
    await patch(owner, site('Production'), {}).expect(422);
    await patch(await signIn('bot@acme.test'), site('Production'), { default_locale: 'es' }).expect(403);
    await patch(owner, globex.sites.get('Globex main')!.id, { default_locale: 'es' }).expect(404);
    const unchanged = is(AccountSiteList, (await as(owner).get('/v1.1/account/sites').expect(200)).body);
    assert.equal(unchanged.data.find((s) => s.id === site('Production'))?.default_locale, 'pt-BR');

    const cleared = is(
      AccountSiteView,
      (await patch(owner, site('Production'), { default_locale: null }).expect(200)).body,
    );
    assert.equal(cleared.default_locale, null);
  });
});
