import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { createLocalJWKSet, SignJWT, type JWK } from 'jose';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accessTokenKeys, verifyAccessToken, type AccessTokenFailure } from '../../src/index.js';

const issuer = 'esign-auth';
const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, jwk: { ...(publicKey.export({ format: 'jwk' }) as JWK), alg: 'EdDSA', use: 'sig' } };
};
const genuine = pair();
const keys = createLocalJWKSet({ keys: [{ ...genuine.jwk, kid: 'k1' }] });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const claims = () => ({ sub: 'u1', jti: 't1', client_id: 'a1' });

const sign = (
  key: KeyObject,
  header: Record<string, unknown> = {},
  edit: (jwt: SignJWT) => SignJWT = (j) => j,
) =>
  edit(
    new SignJWT(claims())
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: 'k1', ...header })
      .setIssuer(issuer)
      .setAudience('esign-api')
      .setIssuedAt()
      .setExpirationTime('1h'),
  ).sign(key);

const refused = async (token: string): Promise<AccessTokenFailure['reason']> => {
  const result = await verifyAccessToken(keys, token, { issuer });
  assert.ok(E.isLeft(result), 'expected the token to be refused');
  return result.left.reason;
};

describe('platform: access token verification', () => {
  it('accepts a genuine token and answers its claims', async () => {
    const result = await verifyAccessToken(keys, await sign(genuine.privateKey), { issuer });
    assert.ok(E.isRight(result));
    assert.equal(result.right.sub, 'u1');
    assert.equal(result.right.jti, 't1');
    assert.equal(result.right.client_id, 'a1');
  });

  it('refuses alg none', async () => {
    const header = b64({ alg: 'none', typ: 'at+jwt', kid: 'k1' });
    const body = b64({ ...claims(), iss: issuer, aud: 'esign-api', iat: now(), exp: now() + 60 });
    assert.equal(await refused(`${header}.${body}.`), 'algorithm_not_allowed');
  });

  it('refuses HS256 keyed with the public key', async () => {
    const header = b64({ alg: 'HS256', typ: 'at+jwt', kid: 'k1' });
    const body = b64({ ...claims(), iss: issuer, aud: 'esign-api', iat: now(), exp: now() + 60 });
    const mac = createHmac('sha256', JSON.stringify(genuine.jwk))
      .update(`${header}.${body}`)
      .digest('base64url');
    assert.equal(await refused(`${header}.${body}.${mac}`), 'algorithm_not_allowed');
  });

  it('refuses a token signed by a foreign key under a known or an unknown kid', async () => {
    const foreign = pair();
    assert.equal(await refused(await sign(foreign.privateKey)), 'bad_signature');
    assert.equal(await refused(await sign(foreign.privateKey, { kid: 'k9' })), 'unknown_key');
  });

  it('refuses expired tokens, other issuers, audiences and types, and missing claims', async () => {
    const expired = await sign(genuine.privateKey, {}, (j) =>
      j.setIssuedAt(now() - 7200).setExpirationTime(now() - 3600),
    );
    assert.equal(await refused(expired), 'expired');
    assert.equal(
      await refused(await sign(genuine.privateKey, {}, (j) => j.setIssuer('elsewhere'))),
      'invalid_claims',
    );
    assert.equal(
      await refused(await sign(genuine.privateKey, {}, (j) => j.setAudience('other'))),
      'invalid_claims',
    );
    assert.equal(await refused(await sign(genuine.privateKey, { typ: 'JWT' })), 'invalid_claims');
    const noClient = await new SignJWT({ sub: 'u1', jti: 't1' })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience('esign-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(genuine.privateKey);
    assert.equal(await refused(noClient), 'invalid_claims');
  });

  it('refuses garbage and oversized tokens without trying them', async () => {
    assert.equal(await refused('not-a-jwt'), 'malformed');
    assert.equal(await refused('x'.repeat(5000)), 'malformed');
  });

  it('tells an unreachable or broken JWKS (answer 503) from a bad token (answer 401)', async () => {
    const token = await sign(genuine.privateKey);
    const server = createServer((_req, res) => {
      res.statusCode = 500;
      res.end('down');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const broken = await verifyAccessToken(accessTokenKeys(`http://127.0.0.1:${port}/jwks`), token, {
        issuer,
      });
      assert.ok(E.isLeft(broken));
      assert.equal(broken.left.reason, 'keys_unavailable');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // The port is closed now: nothing answers.
    const unreachable = await verifyAccessToken(accessTokenKeys(`http://127.0.0.1:${port}/jwks`), token, {
      issuer,
    });
    assert.ok(E.isLeft(unreachable));
    assert.equal(unreachable.left.reason, 'keys_unavailable');
  });
});
