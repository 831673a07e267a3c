import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { AuthorizationList, ConsentView, OAuthErrorBody } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { introspectToken } from '../../src/application/introspect-token.js';
import { setPassword, setUserDisabled } from '../../src/application/users.js';
import { seedAccount, signedInWithApp, startHarness, type Harness } from '../support/harness.js';
import { valueOf } from '../support/port-task.js';

const CALLBACK = 'https://crm.example/oauth/callback';

/**
 * Issue 24 at auth's HTTP edge, on a real database: the callback URL, the consent
 * endpoints, the authorization-code and refresh-token grants, RFC 7009 revocation.
 */
describe('auth: OAuth 2 authorization-code grant over HTTP (Postgres)', () => {
  let h: Harness;
  let vendorSession: string;
  let customerSession: string;
  let clientId: string;
  let sites: Map<string, { id: number }>;
  let customerId: string;

  before(async () => {
    h = await startHarness('auth_oauth_code');
    await seedAccount(h.deps, { name: 'CRM Vendor', sites: [], users: { 'dev@crm.test': [] } });
    const vendor = await signedInWithApp(h.deps, 'dev@crm.test', 'CRM');
    vendorSession = vendor.sessionToken;
    clientId = vendor.app.id;
    const customer = await seedAccount(h.deps, {
      name: 'Customer',
      sites: ['Sales', 'HR'],
      users: { 'ann@customer.test': ['Sales', 'HR'] },
    });
    sites = customer.sites;
    customerId = customer.users.get('ann@customer.test')!.id;
    customerSession = (await signedInWithApp(h.deps, 'ann@customer.test')).sessionToken;
  });
  after(() => h.close());

  const as = (session: string) => ({
    get: (path: string) => request(h.callback).get(path).set('Authorization', `Bearer ${session}`),
    post: (path: string) => request(h.callback).post(path).set('Authorization', `Bearer ${session}`),
    patch: (path: string) => request(h.callback).patch(path).set('Authorization', `Bearer ${session}`),
    delete: (path: string) => request(h.callback).delete(path).set('Authorization', `Bearer ${session}`),
  });
  const pkce = () => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };
  const params = (challenge: string) => ({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    state: 's1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const codeFor = async (challenge: string, siteIds?: number[]) => {
    const decided = await as(customerSession)
      .post('/v1.1/oauth/consent')
      .send({ request: params(challenge), decision: 'allow', ...(siteIds ? { site_ids: siteIds } : {}) })
      .expect(200);
    return new URL(decided.body.redirect_to as string).searchParams.get('code')!;
  };
  const token = (form: Record<string, string>) =>
    request(h.callback)
      .post('/oauth/token')
      .type('form')
      .send({ client_id: clientId, ...form });

  it('validates and sets the callback URL, naming the field', async () => {
    const refused = await as(vendorSession)
      .patch(`/v1.1/apps/${clientId}`)
      .send({ callback_url: 'http://crm.example/cb' })
      .expect(422);
    assert.equal(refused.body.errors[0].path, 'callback_url');
    const before = await as(customerSession)
      .get('/v1.1/oauth/consent')
      .query(params(pkce().challenge))
      .expect(400);
    assert.equal(before.body.code, 'invalid_authorization_request');
    assert.equal(
      before.body.errors[0].path,
      'redirect_uri',
      'an app without a callback cannot be authorised',
    );
    const set = await as(vendorSession)
      .patch(`/v1.1/apps/${clientId}`)
      .send({ callback_url: CALLBACK })
      .expect(200);
    assert.equal(set.body.callback_url, CALLBACK);
    await as(customerSession).patch(`/v1.1/apps/${clientId}`).send({ callback_url: null }).expect(404);
  });

  it('answers the consent page with the app, its owner account and the Sites', async () => {
    const consent = await as(customerSession)
      .get('/v1.1/oauth/consent')
      .query(params(pkce().challenge))
      .expect(200);
    assert.equal(consent.body.app_name, 'CRM');
    assert.equal(consent.body.owner_account_name, 'CRM Vendor');
    assert.ok(ConsentView.is(consent.body));
    assert.deepEqual(
      consent.body.sites.map((s) => s.name),
      ['Sales', 'HR'],
    );
    await request(h.callback).get('/v1.1/oauth/consent').query(params(pkce().challenge)).expect(401);
  });

  it('exchanges a code for a limited token and a refresh token, once; a replay revokes the chain', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge, [sites.get('Sales')!.id]);
    const stored = await h.pool.oneFirst(
      (await import('@esign/platform/database')).sql
        .unsafe`SELECT count(*) FROM oauth_codes WHERE code_hash = sha256(${code}::bytea)`,
    );
    assert.equal(Number(stored), 1, 'only the SHA-256 of the code is kept');
    const exchanged = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    }).expect(200);
    assert.equal(exchanged.headers['cache-control'], 'no-store');
    const claims = decodeJwt(exchanged.body.access_token as string);
    assert.equal(claims.sub, customerId);
    assert.equal(claims.client_id, clientId);
    const seen = await valueOf(introspectToken(h.deps)(claims.jti!));
    assert.ok(seen.active);
    assert.deepEqual(
      seen.sites.map((s) => s.id),
      [sites.get('Sales')!.id],
    );

    const replayed = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    });
    assert.equal(replayed.status, 400);
    assert.ok(OAuthErrorBody.is(replayed.body));
    assert.equal(replayed.body.error, 'invalid_grant');
    assert.equal((await valueOf(introspectToken(h.deps)(claims.jti!))).active, false);
    assert.equal(
      (await token({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token as string }))
        .body.error,
      'invalid_grant',
    );
  });

  it('needs the verifier and the same redirect_uri; refuses plain PKCE at the callback', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const missing = await token({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK }).expect(
      400,
    );
    assert.equal(missing.body.error, 'invalid_request');
    const wrongUri = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${CALLBACK}/x`,
      code_verifier: verifier,
    });
    assert.equal(wrongUri.body.error, 'invalid_grant');
    const plain = await as(customerSession)
      .get('/v1.1/oauth/consent')
      .query({ ...params(challenge), code_challenge_method: 'plain' })
      .expect(200);
    const url = new URL(plain.body.redirect_to as string);
    assert.equal(url.searchParams.get('error'), 'invalid_request');
    assert.equal(url.searchParams.get('state'), 's1');
  });

  it('rotates refresh tokens, revokes by RFC 7009, and lists and revokes authorised apps', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const first = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    }).expect(200);
    const second = await token({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
    }).expect(200);
    assert.notEqual(second.body.refresh_token, first.body.refresh_token);

    // RFC 7009: an access token of ours is revoked; an unknown token answers the same 200.
    await request(h.callback)
      .post('/oauth/revoke')
      .type('form')
      .send({ client_id: clientId, token: second.body.access_token as string })
      .expect(200);
    assert.equal(
      (await valueOf(introspectToken(h.deps)(decodeJwt(second.body.access_token as string).jti!))).active,
      false,
    );
    await request(h.callback)
      .post('/oauth/revoke')
      .type('form')
      .send({ client_id: clientId, token: 'ert_nothing' })
      .expect(200);

    const listed = await as(customerSession).get('/v1.1/oauth/authorizations').expect(200);
    assert.ok(AuthorizationList.is(listed.body));
    assert.deepEqual(
      listed.body.data.map((a) => [a.app_name, a.client_id]),
      [['CRM', clientId]],
    );
    await as(customerSession).delete(`/v1.1/oauth/authorizations/${clientId}`).expect(204);
    assert.equal(
      (await as(customerSession).get('/v1.1/oauth/authorizations').expect(200)).body.data.length,
      0,
    );
    assert.equal(
      (await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token as string })).body
        .error,
      'invalid_grant',
    );
    await as(customerSession).delete('/v1.1/oauth/authorizations/not-a-uuid').expect(204);
  });

  it('refuses a Site the user does not belong to, recording nothing', async () => {
    const grants = () => h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM oauth_grants`);
    const before = await grants();
    const refused = await as(customerSession)
      .post('/v1.1/oauth/consent')
      .send({ request: params(pkce().challenge), decision: 'allow', site_ids: [999_999] })
      .expect(400);
    assert.equal(refused.body.code, 'sites_not_reachable');
    assert.equal(refused.body.errors[0].path, 'site_ids');
    assert.equal(await grants(), before);
  });

  it('issues nothing more once the user is disabled, and a password change ends every authorisation', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const first = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    }).expect(200);
    await setUserDisabled(h.deps)({ userId: customerId, disabled: true })();
    const refused = await token({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
    });
    assert.equal(refused.body.error, 'invalid_grant');
    await setUserDisabled(h.deps)({ userId: customerId, disabled: false })();
    const rotated = await token({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
    }).expect(200);
    await setPassword(h.deps)({ userId: customerId, password: 'another long password 1234' })();
    const afterReset = await token({
      grant_type: 'refresh_token',
      refresh_token: rotated.body.refresh_token as string,
    });
    assert.equal(afterReset.body.error, 'invalid_grant');
  });
});
