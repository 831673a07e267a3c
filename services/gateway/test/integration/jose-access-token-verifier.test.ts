import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { SignJWT, UnsecuredJWT } from 'jose';
import { testLogger } from '@esign/testing';
import { joseAccessTokenVerifier } from '../../src/adapters/jose/jose-access-token-verifier.js';
import { AuthUnavailable } from '../../src/ports/auth-unavailable.js';
import { newSigningKey, startAuthDouble, type AuthDouble } from '../support/auth-double.js';
import { closedPort } from '../support/http-double.js';
import { INTROSPECTION_SECRET } from '../support/gateway-under-test.js';

const verifierFor = (authUrl: string, cooldownMs = 0) =>
  joseAccessTokenVerifier({
    authUrl,
    issuer: 'esign-auth',
    cooldownMs,
    cacheMaxAgeMs: 600_000,
    timeoutMs: 1000,
    logger: testLogger(),
  });

describe('gateway: access token verification against a JWKS endpoint (jose)', () => {
  let auth: AuthDouble;
  beforeEach(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
  });
  afterEach(() => auth.close());

  /** 'valid', the rejection's reason, or 'unavailable' when the task rejects with AuthUnavailable. */
  const outcome = async (verify: ReturnType<typeof verifierFor>, token: string) => {
    try {
      const result = await verify(token)();
      return E.isRight(result) ? 'valid' : result.left.reason;
    } catch (error) {
      assert.ok(error instanceof AuthUnavailable);
      return 'unavailable';
    }
  };

  it('accepts a well-formed token and returns its claims', async () => {
    const token = await auth.mint({ sub: 'user-7', jti: 'tok-7', clientId: 'app-7' });
    const result = await verifierFor(auth.url)(token)();
    assert.ok(E.isRight(result));
    assert.equal(result.right.sub, 'user-7');
    assert.equal(result.right.jti, 'tok-7');
    assert.equal(result.right.client_id, 'app-7');
  });

  it('refuses expired tokens, wrong issuer, audience or type, and a missing kid', async () => {
    const verify = verifierFor(auth.url);
    assert.equal(await outcome(verify, await auth.mint({ expiresIn: -10 })), 'expired');
    assert.equal(await outcome(verify, await auth.mint({ issuer: 'someone-else' })), 'invalid');
    assert.equal(await outcome(verify, await auth.mint({ audience: 'esign-internal' })), 'invalid');
    assert.equal(await outcome(verify, await auth.mint({ typ: 'JWT' })), 'invalid');
    assert.equal(await outcome(verify, await auth.mint({ noKid: true })), 'malformed');
  });

  it('refuses forged signatures and every algorithm but EdDSA, without fetching keys for them', async () => {
    const verify = verifierFor(auth.url);
    const forger = await newSigningKey(auth.currentKey.kid);
    assert.equal(await outcome(verify, await auth.mint({ key: forger })), 'invalid');
    const fetchesBefore = auth.state.jwksFetches;
    const hs256 = await new SignJWT({ client_id: 'app' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: auth.currentKey.kid })
      .setIssuer('esign-auth')
      .setAudience('esign-api')
      .setSubject('u')
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(JSON.stringify(auth.currentKey.publicJwk)));
    assert.equal(await outcome(verify, hs256), 'invalid');
    const none = new UnsecuredJWT({ client_id: 'app', sub: 'u', jti: 'j' }).encode();
    assert.notEqual(await outcome(verify, none), 'valid');
    assert.equal(auth.state.jwksFetches, fetchesBefore);
  });

  it('refuses a token without client_id', async () => {
    const key = auth.currentKey;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: key.kid })
      .setIssuer('esign-auth')
      .setAudience('esign-api')
      .setSubject('u')
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key.privateKey);
    assert.equal(await outcome(verifierFor(auth.url), token), 'invalid');
  });

  it('caches the key set and fetches it again on an unknown kid (key rotation)', async () => {
    const verify = verifierFor(auth.url);
    assert.equal(await outcome(verify, await auth.mint()), 'valid');
    assert.equal(await outcome(verify, await auth.mint()), 'valid');
    assert.equal(auth.state.jwksFetches, 1);
    await auth.rotate();
    assert.equal(await outcome(verify, await auth.mint()), 'valid');
    assert.equal(auth.state.jwksFetches, 2);
  });

  it('fetches at most once per cooldown however many unknown kids arrive', async () => {
    const verify = verifierFor(auth.url, 60_000);
    assert.equal(await outcome(verify, await auth.mint()), 'valid');
    for (let i = 0; i < 3; i++) {
      assert.equal(await outcome(verify, await auth.mint({ key: await newSigningKey() })), 'invalid');
    }
    assert.equal(auth.state.jwksFetches, 1);
  });

  it('rejects as unavailable, not "invalid", when the key set cannot be fetched', async () => {
    auth.state.jwksUp = false;
    assert.equal(await outcome(verifierFor(auth.url), await auth.mint()), 'unavailable');
    assert.equal(await outcome(verifierFor(await closedPort()), await auth.mint()), 'unavailable');
  });
});
