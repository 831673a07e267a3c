import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { checkCallbackUrl } from '@esign/contracts';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { listAuthorizations, revokeAuthorization } from '../../src/application/authorizations.js';
import { createAccount } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { introspectToken } from '../../src/application/introspect-token.js';
import { checkConsent, decideConsent } from '../../src/application/oauth-authorize.js';
import { authorizationCodeGrant, refreshTokenGrant } from '../../src/application/oauth-grants.js';
import { authenticateClient } from '../../src/application/client-authentication.js';
import { signIn } from '../../src/application/sign-in.js';
import { addMember, createSite } from '../../src/application/sites.js';
import { createUser } from '../../src/application/users.js';
import { fakeWorld } from '../support/fakes.js';
import { left, valueOf } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';
const CALLBACK = 'https://crm.example/oauth/callback?tenant=7';
const VERIFIER = 'v'.repeat(20) + '-._~' + 'w'.repeat(30);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

const right = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) assert.fail(`expected success, got ${JSON.stringify(result.left)}`);
  return result.right;
};

/** The app's owner in one account; the customer with two Sites in another. */
const seed = async () => {
  const world = fakeWorld();
  const { deps } = world;
  const vendor = await right(createAccount(deps)({ name: 'CRM Vendor', apiAccess: true }));
  const owner = await right(
    createUser(deps)({ accountId: vendor.id, email: 'dev@crm.test', password: PASSWORD }),
  );
  const app = await right(createApp(deps)({ userId: owner.id, name: 'CRM', callbackUrl: CALLBACK }));
  const customer = await right(createAccount(deps)({ name: 'Customer', apiAccess: true }));
  const granted = await right(createSite(deps)({ accountId: customer.id, name: 'Sales' }));
  const other = await right(createSite(deps)({ accountId: customer.id, name: 'HR' }));
  const user = await right(
    createUser(deps)({ accountId: customer.id, email: 'ann@customer.test', password: PASSWORD }),
  );
  await right(addMember(deps)({ siteId: granted.id, userId: user.id }));
  await right(addMember(deps)({ siteId: other.id, userId: user.id }));
  const signedIn = await right(signIn(deps)({ email: 'ann@customer.test', password: PASSWORD }));
  const session = await right(authenticateSession(deps)(signedIn.sessionToken));
  const params = {
    response_type: 'code',
    client_id: app.id,
    redirect_uri: CALLBACK,
    state: 'xyz',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  };
  const client = await right(authenticateClient(deps)({ id: app.id, secret: undefined }));
  return { world, deps, app, user, session, granted, other, params, client };
};

const codeOf = (redirectTo: string) => {
  const url = new URL(redirectTo);
  assert.equal(`${url.origin}${url.pathname}`, 'https://crm.example/oauth/callback');
  assert.equal(url.searchParams.get('tenant'), '7', "the callback's own query is kept");
  return {
    code: url.searchParams.get('code'),
    state: url.searchParams.get('state'),
    error: url.searchParams.get('error'),
  };
};

describe('OAuth authorization-code grant (issue 24)', () => {
  it('accepts https callbacks, http only on localhost, and nothing with a fragment or wildcard', () => {
    assert.ok(E.isRight(checkCallbackUrl('https://crm.example/cb')));
    assert.ok(E.isRight(checkCallbackUrl('http://localhost:3000/cb')));
    assert.ok(E.isRight(checkCallbackUrl('http://127.0.0.1:3000/cb')));
    assert.ok(E.isLeft(checkCallbackUrl('http://crm.example/cb')));
    assert.ok(E.isLeft(checkCallbackUrl('https://crm.example/cb#x')));
    assert.ok(E.isLeft(checkCallbackUrl('https://*.crm.example/cb')));
    assert.ok(E.isLeft(checkCallbackUrl('https://u:p@crm.example/cb')));
    assert.ok(E.isLeft(checkCallbackUrl('/cb')));
  });

  it('shows an unknown client or a foreign callback on our page, and sends other faults to the callback', async () => {
    const s = await seed();
    const unknown = await left(checkConsent(s.deps)(s.session, { ...s.params, client_id: s.user.id }));
    assert.deepEqual(unknown, {
      _tag: 'InvalidAuthorizationRequest',
      field: 'client_id',
      reason: 'names no app',
    });
    const foreign = await left(
      checkConsent(s.deps)(s.session, { ...s.params, redirect_uri: 'https://evil.example/cb' }),
    );
    assert.equal((foreign as { field: string }).field, 'redirect_uri');
    const prefix = await left(
      checkConsent(s.deps)(s.session, { ...s.params, redirect_uri: CALLBACK + '&x=1' }),
    );
    assert.equal((prefix as { field: string }).field, 'redirect_uri', 'exact match only');
    const plain = await right(
      checkConsent(s.deps)(s.session, { ...s.params, code_challenge_method: 'plain' }),
    );
    assert.equal(plain.kind, 'redirect');
    const answer = plain.kind === 'redirect' ? codeOf(plain.redirectTo) : assert.fail();
    assert.equal(answer.error, 'invalid_request');
    assert.equal(answer.state, 'xyz');
    const noState = await right(checkConsent(s.deps)(s.session, { ...s.params, state: undefined }));
    assert.equal(noState.kind === 'redirect' && codeOf(noState.redirectTo).error, 'invalid_request');
    const twice = await right(checkConsent(s.deps)(s.session, { ...s.params, state: ['a', 'b'] }));
    assert.equal(twice.kind === 'redirect' && codeOf(twice.redirectTo).error, 'invalid_request');
  });

  it('names the app, its owner account and the Sites; Deny answers access_denied', async () => {
    const s = await seed();
    const consent = await right(checkConsent(s.deps)(s.session, s.params));
    assert.ok(consent.kind === 'consent');
    assert.equal(consent.consent.request.app.name, 'CRM');
    assert.equal(consent.consent.ownerAccountName, 'CRM Vendor');
    assert.deepEqual(consent.consent.sites.map((site) => site.name).sort(), ['HR', 'Sales']);
    const denied = await right(decideConsent(s.deps)({ session: s.session, params: s.params, allow: false }));
    assert.deepEqual(codeOf(denied.redirectTo), { code: null, state: 'xyz', error: 'access_denied' });
    assert.equal(s.world.state.oauth.grants.size, 0, 'Deny records nothing');
  });

  it('refuses to grant a Site the user does not belong to, recording nothing', async () => {
    const s = await seed();
    const refused = await left(
      decideConsent(s.deps)({
        session: s.session,
        params: s.params,
        allow: true,
        siteIds: [s.granted.id, 999],
      }),
    );
    assert.deepEqual(refused, { _tag: 'SitesNotReachable', siteIds: [999] });
    assert.equal(s.world.state.oauth.codes.size, 0);
  });

  it('exchanges a code once, with the verifier, for tokens of the user limited to the granted Sites', async () => {
    const s = await seed();
    const allowed = await right(
      decideConsent(s.deps)({ session: s.session, params: s.params, allow: true, siteIds: [s.granted.id] }),
    );
    const { code, state } = codeOf(allowed.redirectTo);
    assert.equal(state, 'xyz');
    assert.match(code!, /^eac_/);
    const exchange = (overrides: Partial<Parameters<ReturnType<typeof authorizationCodeGrant>>[0]> = {}) =>
      authorizationCodeGrant(s.deps)({
        client: s.client,
        code: code!,
        redirectUri: CALLBACK,
        codeVerifier: VERIFIER,
        ...overrides,
      });
    assert.deepEqual(await left(exchange({ codeVerifier: 'x'.repeat(43) })), {
      _tag: 'InvalidGrant',
      reason: 'code_verifier does not match the code challenge',
    });
    assert.equal(
      ((await left(exchange({ redirectUri: 'https://crm.example/other' }))) as { _tag: string })._tag,
      'InvalidGrant',
    );
    const tokens = await right(exchange());
    const record = [...s.world.state.tokens.values()].find((t) => t.origin === 'authorization_code')!;
    assert.equal(record.userId, s.user.id, 'the token acts for the authorising user');
    assert.equal(record.appId, s.app.id);
    assert.equal(record.name, 'CRM', "listed with the app's name");
    const seen = await valueOf(introspectToken(s.deps)(record.id));
    assert.ok(seen.active);
    assert.deepEqual(
      seen.sites.map((site) => site.id),
      [s.granted.id],
    );
    assert.match(tokens.refreshToken, /^ert_/);

    // A second use is refused and revokes what the first gave.
    assert.deepEqual(await left(exchange()), {
      _tag: 'InvalidGrant',
      reason: 'the code was already used; the tokens it gave are revoked',
    });
    assert.equal((await valueOf(introspectToken(s.deps)(record.id))).active, false);
    assert.equal(
      (
        (await left(refreshTokenGrant(s.deps)({ client: s.client, refreshToken: tokens.refreshToken }))) as {
          _tag: string;
        }
      )._tag,
      'InvalidGrant',
    );
  });

  it('expires a code after 60 s', async () => {
    const s = await seed();
    const allowed = await right(decideConsent(s.deps)({ session: s.session, params: s.params, allow: true }));
    s.world.advance(60);
    const refused = await left(
      authorizationCodeGrant(s.deps)({
        client: s.client,
        code: codeOf(allowed.redirectTo).code!,
        redirectUri: CALLBACK,
        codeVerifier: VERIFIER,
      }),
    );
    assert.deepEqual(refused, { _tag: 'InvalidGrant', reason: 'the code has expired' });
  });

  it('rotates refresh tokens; replaying an old one revokes the chain; revoking the app ends it', async () => {
    const s = await seed();
    const allowed = await right(decideConsent(s.deps)({ session: s.session, params: s.params, allow: true }));
    const first = await right(
      authorizationCodeGrant(s.deps)({
        client: s.client,
        code: codeOf(allowed.redirectTo).code!,
        redirectUri: CALLBACK,
        codeVerifier: VERIFIER,
      }),
    );
    const second = await right(
      refreshTokenGrant(s.deps)({ client: s.client, refreshToken: first.refreshToken }),
    );
    assert.notEqual(second.refreshToken, first.refreshToken);
    const listed = await right(listAuthorizations(s.deps)(s.session, { page: 1, perPage: 20 }));
    assert.deepEqual(
      listed.items.map((a) => [a.appName, a.siteIds]),
      [['CRM', [s.granted.id, s.other.id].sort((a, b) => a - b)]],
    );

    const replay = await left(
      refreshTokenGrant(s.deps)({ client: s.client, refreshToken: first.refreshToken }),
    );
    assert.equal((replay as { _tag: string })._tag, 'InvalidGrant');
    const live = [...s.world.state.tokens.values()].filter(
      (t) => t.origin === 'authorization_code' && t.revokedAt === null,
    );
    assert.equal(live.length, 0, 'every access token of the chain is revoked');
    assert.equal(
      (
        (await left(refreshTokenGrant(s.deps)({ client: s.client, refreshToken: second.refreshToken }))) as {
          _tag: string;
        }
      )._tag,
      'InvalidGrant',
    );
    assert.equal((await right(listAuthorizations(s.deps)(s.session, { page: 1, perPage: 20 }))).total, 0);

    const again = await right(decideConsent(s.deps)({ session: s.session, params: s.params, allow: true }));
    const tokens = await right(
      authorizationCodeGrant(s.deps)({
        client: s.client,
        code: codeOf(again.redirectTo).code!,
        redirectUri: CALLBACK,
        codeVerifier: VERIFIER,
      }),
    );
    await right(revokeAuthorization(s.deps)(s.session, s.app.id));
    assert.equal(
      (
        (await left(refreshTokenGrant(s.deps)({ client: s.client, refreshToken: tokens.refreshToken }))) as {
          _tag: string;
        }
      )._tag,
      'InvalidGrant',
    );
  });

  it('holds an app with a client secret to it', async () => {
    const s = await seed();
    await s.deps.apps.setClientSecret(s.app.id, s.deps.secrets.fingerprint('ecs_right'), new Date())();
    assert.deepEqual(await left(authenticateClient(s.deps)({ id: s.app.id, secret: undefined })), {
      _tag: 'InvalidClient',
    });
    assert.deepEqual(await left(authenticateClient(s.deps)({ id: s.app.id, secret: 'ecs_wrong' })), {
      _tag: 'InvalidClient',
    });
    await right(authenticateClient(s.deps)({ id: s.app.id, secret: 'ecs_right' }));
  });
});
