import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import request from 'supertest';
import { PRINCIPAL_AUDIENCES, type JwkSet } from '@esign/contracts';
import { testGatewayKeys } from '@esign/testing';
import { createTokenForApp } from '../../src/application/admin-tokens.js';
import { issueClientSecret } from '../../src/application/client-secret.js';
import { ensureSigningKey } from '../../src/application/ensure-signing-key.js';
import { rotateSigningKey } from '../../src/application/signing-keys.js';
import { removeMember } from '../../src/application/sites.js';
import { setPassword } from '../../src/application/users.js';
import { gatewayCheck } from '../support/gateway-check.js';
import {
  INTERNAL_SECRET,
  listen,
  PASSWORD,
  seedAccount,
  signedInWithApp,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { valueOf } from '../support/port-task.js';

/**
 * The issue's "done when": every kind of token the gateway must refuse is refused (401
 * or 403), and legitimate ones are accepted, judged through auth's real JWKS endpoint
 * and introspection over HTTP.
 */
describe('auth: access tokens as the gateway meets them', function () {
  let h: Harness;
  let server: Awaited<ReturnType<typeof listen>>;
  let check: ReturnType<typeof gatewayCheck>;
  let seeded: Awaited<ReturnType<typeof seedAccount>>;
  let production: number;
  let development: number;

  before(async () => {
    h = await startHarness('auth_access_tokens');
    server = await listen(h.callback);
    check = gatewayCheck(server.url, INTERNAL_SECRET);
    seeded = await seedAccount(h.deps, {
      sites: ['Production', 'Development'],
      users: {
        'dev@acme.test': ['Production', 'Development'],
        'prod-bot@acme.test': ['Production'],
        'reset@acme.test': ['Production', 'Development'],
      },
    });
    production = seeded.sites.get('Production')!.id;
    development = seeded.sites.get('Development')!.id;
    // A signing key that has existed for ten days, so tokens can be issued in the past.
    h.clock.shift(-10 * 86_400);
    await valueOf(ensureSigningKey(h.deps));
    h.clock.reset();
  });
  after(async () => {
    await server.close();
    await h.close();
  });
  afterEach(() => h.clock.reset());

  /** The spec's flow over HTTP: sign in, make an app, re-enter the password, get a token. */
  const selfServiceToken = async (email: string, extra: Record<string, unknown> = {}) => {
    const { sessionToken, app } = await signedInWithApp(h.deps, email);
    const response = await request(h.callback)
      .post(`/v1.1/apps/${app.id}/tokens`)
      .set('Authorization', `Bearer ${sessionToken}`)
      .send({ password: PASSWORD, ...extra })
      .expect(201);
    return {
      bearer: `Bearer ${response.body.access_token as string}`,
      id: response.body.id as string,
      sessionToken,
      app,
    };
  };

  it('accepts a legitimate token for the sites of its user, and carries the seams the gateway relies on', async () => {
    const { bearer, id, app } = await selfServiceToken('dev@acme.test');
    assert.deepEqual(await check(bearer, production), { status: 200, reason: 'ok' });
    assert.deepEqual(await check(bearer, development), { status: 200, reason: 'ok' });
    const jwt = bearer.slice('Bearer '.length);
    const header = decodeProtectedHeader(jwt);
    assert.equal(header.alg, 'EdDSA');
    assert.equal(header.typ, 'at+jwt');
    assert.equal(typeof header.kid, 'string');
    const claims = decodeJwt(jwt);
    assert.equal(claims.iss, 'esign-auth');
    assert.equal(claims.aud, 'esign-api');
    assert.equal(claims.sub, seeded.users.get('dev@acme.test')!.id);
    assert.equal(claims.jti, id);
    assert.equal(claims.client_id, app.id);
    assert.equal(claims.exp! - claims.iat!, 90 * 86_400);
    assert.deepEqual(Object.keys(claims).sort(), ['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'sub']);
  });

  it('gives the dedicated single-site user a token that reaches only that site', async () => {
    const { bearer } = await selfServiceToken('prod-bot@acme.test');
    assert.deepEqual(await check(bearer, production), { status: 200, reason: 'ok' });
    assert.deepEqual(await check(bearer, development), { status: 403, reason: 'site not reached' });
    assert.deepEqual(await check(bearer, 999_999), { status: 403, reason: 'site not reached' });
  });

  it('stops a revoked token at once: the next introspection says inactive', async () => {
    const { bearer, id, sessionToken } = await selfServiceToken('dev@acme.test');
    assert.equal((await check(bearer, production)).status, 200);
    await request(h.callback)
      .delete(`/v1.1/tokens/${id}`)
      .set('Authorization', `Bearer ${sessionToken}`)
      .expect(204);
    assert.deepEqual(await check(bearer, production), { status: 401, reason: 'inactive' });
  });

  it('stops reaching a site at once when the membership is removed', async () => {
    const user = seeded.users.get('dev@acme.test')!;
    const { bearer } = await selfServiceToken('dev@acme.test');
    assert.equal((await check(bearer, development)).status, 200);
    await removeMember(h.deps)({ siteId: development, userId: user.id })();
    assert.deepEqual(await check(bearer, development), { status: 403, reason: 'site not reached' });
    assert.equal((await check(bearer, production)).status, 200);
  });

  it('creates nothing on a wrong password (401), and throttles repeated failures (429, Retry-After)', async () => {
    const { sessionToken, app } = await signedInWithApp(h.deps, 'prod-bot@acme.test', 'Throttled');
    const attempt = (password: string) =>
      request(h.callback)
        .post(`/v1.1/apps/${app.id}/tokens`)
        .set('Authorization', `Bearer ${sessionToken}`)
        .send({ password });
    for (let i = 0; i < 5; i++) {
      const wrong = await attempt('not the password').expect(401);
      assert.equal(wrong.body.code, 'invalid_password');
    }
    const throttled = await attempt(PASSWORD).expect(429);
    assert.equal(throttled.body.code, 'too_many_attempts');
    assert.ok(Number(throttled.headers['retry-after']) > 0 && Number(throttled.headers['retry-after']) <= 30);
    const list = await request(h.callback)
      .get(`/v1.1/apps/${app.id}/tokens`)
      .set('Authorization', `Bearer ${sessionToken}`)
      .expect(200);
    assert.equal(list.body.total_count, 0);
    // Once the wait is over, the right password works and clears the count.
    h.clock.shift(31);
    await attempt(PASSWORD).expect(201);
  });

  it('refuses an expired token', async () => {
    const { app } = await signedInWithApp(h.deps, 'dev@acme.test');
    h.clock.shift(-2 * 86_400);
    const issued = await createTokenForApp(h.deps)({ appId: app.id, expiresInDays: 1 })();
    assert.ok(issued._tag === 'Right');
    h.clock.reset();
    assert.deepEqual(await check(`Bearer ${issued.right.accessToken}`, production), {
      status: 401,
      reason: 'expired',
    });
    // Introspection agrees, should a verifier skip the exp check.
    const answer = await request(h.callback)
      .post('/internal/introspect')
      .set('Authorization', `Bearer ${INTERNAL_SECRET}`)
      .send({ token_id: issued.right.record.id })
      .expect(200);
    assert.deepEqual(answer.body, { active: false });
  });

  it('M5: introspection takes only its own credential: a principal the gateway signed is no bearer for it', async () => {
    const { id } = await selfServiceToken('dev@acme.test');
    const principal = await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.requests, {
      sub: 'dev',
      token_id: id,
      sites: [{ id: production, name: 'Production' }],
    });
    for (const presented of [principal, `${INTERNAL_SECRET}x`]) {
      const refused = await request(h.callback)
        .post('/internal/introspect')
        .set('Authorization', `Bearer ${presented}`)
        .send({ token_id: id })
        .expect(401);
      assert.equal(refused.body.active, undefined);
    }
    await request(h.callback)
      .post('/internal/introspect')
      .set('Authorization', `Bearer ${INTERNAL_SECRET}`)
      .send({ token_id: id })
      .expect(200, /"active":true/);
  });

  describe('issue 18 item 10 (L10)', () => {
    const clientCredentials = (appId: string, secret: string) =>
      request(h.callback)
        .post('/oauth/token')
        .auth(appId, secret)
        .type('form')
        .send({ grant_type: 'client_credentials' });

    it('L10: a password reset revokes every access token and client secret of the user, and nobody else’s', async () => {
      const { bearer, app } = await selfServiceToken('reset@acme.test');
      const secret = await valueOf(issueClientSecret(h.deps)(app.id));
      await clientCredentials(app.id, secret.clientSecret).expect(200);
      const operatorMade = await createTokenForApp(h.deps)({ appId: app.id })();
      assert.ok(operatorMade._tag === 'Right');
      const bystander = await selfServiceToken('dev@acme.test');

      const user = seeded.users.get('reset@acme.test')!;
      const changed = await setPassword(h.deps)({ userId: user.id, password: 'a brand new long password' })();
      assert.ok(changed._tag === 'Right');
      assert.equal(changed.right.revoked.clientSecretsRemoved, 1);
      assert.ok(changed.right.revoked.tokensRevoked >= 3);

      assert.deepEqual(await check(bearer, production), { status: 401, reason: 'inactive' });
      assert.deepEqual(await check(`Bearer ${operatorMade.right.accessToken}`, production), {
        status: 401,
        reason: 'inactive',
      });
      const refused = await clientCredentials(app.id, secret.clientSecret).expect(401);
      assert.equal(refused.body.error, 'invalid_client');
      assert.deepEqual(await check(bystander.bearer, production), { status: 200, reason: 'ok' });
    });

    it('L10: limits a token to chosen Sites of its user; the limit shows in lists and holds at use', async () => {
      const { sessionToken, app } = await signedInWithApp(h.deps, 'dev@acme.test', 'Limited');
      const created = await request(h.callback)
        .post(`/v1.1/apps/${app.id}/tokens`)
        .set('Authorization', `Bearer ${sessionToken}`)
        .send({ password: PASSWORD, site_ids: [production] })
        .expect(201);
      assert.deepEqual(created.body.site_ids, [production]);
      const bearer = `Bearer ${created.body.access_token as string}`;
      assert.deepEqual(await check(bearer, production), { status: 200, reason: 'ok' });
      assert.deepEqual(await check(bearer, development), { status: 403, reason: 'site not reached' });
      const listed = await request(h.callback)
        .get(`/v1.1/apps/${app.id}/tokens`)
        .set('Authorization', `Bearer ${sessionToken}`)
        .expect(200);
      const mine = (listed.body.data as { id: string; site_ids: number[] | null }[]).find(
        (t) => t.id === created.body.id,
      );
      assert.deepEqual(mine?.site_ids, [production]);
      const unlimited = await request(h.callback)
        .post(`/v1.1/apps/${app.id}/tokens`)
        .set('Authorization', `Bearer ${sessionToken}`)
        .send({ password: PASSWORD })
        .expect(201);
      assert.equal(unlimited.body.site_ids, null);
    });

    it('L10: refuses a limit beyond the user’s Sites with a 400 naming site_ids, creating nothing', async () => {
      const { sessionToken, app } = await signedInWithApp(h.deps, 'prod-bot@acme.test', 'Overreach');
      const before = await valueOf(h.deps.tokens.list({ appId: app.id }, { page: 1, perPage: 100 }));
      const refused = await request(h.callback)
        .post(`/v1.1/apps/${app.id}/tokens`)
        .set('Authorization', `Bearer ${sessionToken}`)
        .send({ password: PASSWORD, site_ids: [production, development] })
        .expect(400);
      assert.equal(refused.body.code, 'sites_not_reachable');
      assert.match(refused.headers['content-type'] ?? '', /application\/problem\+json/);
      assert.deepEqual(
        (refused.body.errors as { path: string }[]).map((e) => e.path),
        ['site_ids'],
      );
      assert.match(refused.body.errors[0].message as string, new RegExp(String(development)));
      for (const body of [{ site_ids: [] }, { site_ids: [production, production] }, { site_ids: ['x'] }]) {
        const bad = await request(h.callback)
          .post(`/v1.1/apps/${app.id}/tokens`)
          .set('Authorization', `Bearer ${sessionToken}`)
          .send({ password: PASSWORD, ...body });
        assert.ok(bad.status >= 400 && bad.status < 500, JSON.stringify(body));
        assert.ok(
          (bad.body.errors as { path: string }[]).some((e) => e.path.startsWith('site_ids')),
          JSON.stringify(bad.body),
        );
      }
      const after = await valueOf(h.deps.tokens.list({ appId: app.id }, { page: 1, perPage: 100 }));
      assert.equal(after.total, before.total);
    });
  });

  describe('forgeries', () => {
    let genuine: { jwt: string; kid: string; claims: Record<string, unknown> };
    let jwks: JwkSet;
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

    before(async () => {
      const { bearer } = await selfServiceToken('dev@acme.test');
      const jwt = bearer.slice('Bearer '.length);
      genuine = { jwt, kid: decodeProtectedHeader(jwt).kid!, claims: decodeJwt(jwt) };
      jwks = (await request(h.callback).get('/.well-known/jwks.json').expect(200)).body as JwkSet;
      assert.equal((await check(bearer, production)).status, 200, 'the genuine token works');
    });

    it('refuses alg none', async () => {
      const forged = `${b64({ alg: 'none', typ: 'at+jwt', kid: genuine.kid })}.${b64(genuine.claims)}.`;
      assert.deepEqual(await check(`Bearer ${forged}`, production), {
        status: 401,
        reason: 'algorithm_not_allowed',
      });
    });

    it('refuses a token signed with a foreign key, under the real kid or another', async () => {
      const { privateKey } = generateKeyPairSync('ed25519');
      for (const kid of [genuine.kid, 'attacker-key']) {
        const forged = await new SignJWT(genuine.claims)
          .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid })
          .sign(privateKey);
        const decision = await check(`Bearer ${forged}`, production);
        assert.equal(decision.status, 401);
        assert.equal(decision.reason, kid === genuine.kid ? 'bad_signature' : 'unknown_key');
      }
    });

    it('refuses HS256 keyed with the public key, in every form an attacker might try', async () => {
      const jwk = jwks.keys.find((k) => k.kid === genuine.kid)!;
      const secrets = [JSON.stringify(jwk), jwk.x, Buffer.from(jwk.x, 'base64url')];
      for (const secret of secrets) {
        const head = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: genuine.kid })}.${b64(genuine.claims)}`;
        const mac = createHmac('sha256', secret).update(head).digest('base64url');
        assert.deepEqual(await check(`Bearer ${head}.${mac}`, production), {
          status: 401,
          reason: 'algorithm_not_allowed',
        });
      }
    });

    it('refuses a genuine signature over altered claims', async () => {
      const [head, , signature] = genuine.jwt.split('.');
      const widened = b64({ ...genuine.claims, sub: seeded.users.get('prod-bot@acme.test')!.id });
      assert.deepEqual(await check(`Bearer ${head}.${widened}.${signature}`, production), {
        status: 401,
        reason: 'bad_signature',
      });
    });
  });

  it('keeps tokens working across a key rotation, and publishes the new key before it signs', async () => {
    const { bearer: before } = await selfServiceToken('dev@acme.test');
    const oldKid = decodeProtectedHeader(before.slice(7)).kid;
    assert.equal((await check(before, production)).status, 200);

    const rotation = await rotateSigningKey(h.deps)({ activateInSeconds: 120, revokePrevious: false })();
    assert.ok(rotation._tag === 'Right');
    const newKid = rotation.right.key.kid;
    const published = (await request(h.callback).get('/.well-known/jwks.json').expect(200)).body as JwkSet;
    assert.deepEqual(published.keys.map((k) => k.kid).sort(), [newKid, oldKid].sort());

    h.clock.shift(121);
    const { bearer: after } = await selfServiceToken('dev@acme.test');
    assert.equal(decodeProtectedHeader(after.slice(7)).kid, newKid);
    assert.deepEqual(await check(after, production), { status: 200, reason: 'ok' });
    assert.deepEqual(await check(before, production), { status: 200, reason: 'ok' });
  });

  it('withdraws the old key and its tokens on a rotation for a suspected leak', async () => {
    const { bearer: before } = await selfServiceToken('dev@acme.test');
    assert.equal((await check(before, production)).status, 200);
    const rotation = await rotateSigningKey(h.deps)({ activateInSeconds: 0, revokePrevious: true })();
    assert.ok(rotation._tag === 'Right');
    assert.deepEqual(await check(before, production), { status: 401, reason: 'inactive' });
    const published = (await request(h.callback).get('/.well-known/jwks.json').expect(200)).body as JwkSet;
    assert.deepEqual(
      published.keys.map((k) => k.kid),
      [rotation.right.key.kid],
    );
    const { bearer: after } = await selfServiceToken('dev@acme.test');
    assert.deepEqual(await check(after, production), { status: 200, reason: 'ok' });
  });

  it('accepts a client-credentials token and an operator-made token', async () => {
    const { app } = await signedInWithApp(h.deps, 'prod-bot@acme.test', 'Machine');
    const secret = await valueOf(issueClientSecret(h.deps)(app.id));
    const response = await request(h.callback)
      .post('/oauth/token')
      .auth(app.id, secret.clientSecret)
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    assert.deepEqual(await check(`Bearer ${response.body.access_token as string}`, production), {
      status: 200,
      reason: 'ok',
    });
    assert.deepEqual(await check(`Bearer ${response.body.access_token as string}`, development), {
      status: 403,
      reason: 'site not reached',
    });
    const issued = await createTokenForApp(h.deps)({ appId: app.id })();
    assert.ok(issued._tag === 'Right');
    assert.deepEqual(await check(`Bearer ${issued.right.accessToken}`, production), {
      status: 200,
      reason: 'ok',
    });
  });

  it('refuses a missing bearer, garbage, and a session credential presented as an access token', async () => {
    assert.equal((await check(undefined, production)).status, 401);
    assert.equal((await check('Bearer not-a-jwt', production)).status, 401);
    const { sessionToken } = await signedInWithApp(h.deps, 'dev@acme.test');
    assert.equal((await check(`Bearer ${sessionToken}`, production)).status, 401);
  });
});
