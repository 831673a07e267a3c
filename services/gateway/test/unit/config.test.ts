import assert from 'node:assert/strict';
import { ConfigError } from '@esign/platform';
import { testGatewayKeys } from '@esign/testing';
import { decodeGatewayConfig } from '../../src/config.js';

const SECRET = 'x'.repeat(32);
const KEYS = { PRINCIPAL_SIGNING_KEY: testGatewayKeys.signingKeyEnv, INTROSPECTION_SECRET: SECRET };

describe('gateway: configuration', () => {
  it('has working defaults once the internal secret is given', () => {
    const config = decodeGatewayConfig(KEYS);
    assert.equal(config.PORT, 8080);
    assert.equal(config.OPS_PORT, 9080, 'L12: /readyz and /metrics on a port of their own');
    assert.equal(config.AUTH_URL, 'http://127.0.0.1:8081');
    assert.equal(config.TOKEN_ISSUER, 'esign-auth');
    assert.equal(config.INTROSPECTION_CACHE_SECONDS, 5);
    assert.deepEqual(config.RATE_LIMIT_TOKEN, { quota: 600, windowSeconds: 60 });
    assert.deepEqual(config.RATE_LIMIT_COSTLY, { quota: 30, windowSeconds: 60 });
    assert.equal(config.BODY_LIMIT_BYTES, 1048576);
  });

  it('reads rates as <quota>/<seconds>s or off', () => {
    const config = decodeGatewayConfig({
      ...KEYS,
      RATE_LIMIT_SITE: 'off',
      RATE_LIMIT_TOKEN: '10/1s',
    });
    assert.equal(config.RATE_LIMIT_SITE, null);
    assert.deepEqual(config.RATE_LIMIT_TOKEN, { quota: 10, windowSeconds: 1 });
  });

  it('stops start-up naming each wrong variable', () => {
    assert.throws(
      () => decodeGatewayConfig({}),
      (e: Error) =>
        e instanceof ConfigError &&
        /PRINCIPAL_SIGNING_KEY is required/.test(e.message) &&
        /INTROSPECTION_SECRET is required/.test(e.message),
    );
    assert.throws(
      () => decodeGatewayConfig({ ...KEYS, INTROSPECTION_SECRET: 'short' }),
      /INTROSPECTION_SECRET must be at least 32 characters/,
    );
    // M5: principals are signed with an asymmetric key, never a shared secret.
    assert.throws(
      () => decodeGatewayConfig({ ...KEYS, PRINCIPAL_SIGNING_KEY: SECRET }),
      /PRINCIPAL_SIGNING_KEY must be an Ed25519 private key/,
    );
    assert.throws(
      () => decodeGatewayConfig({ ...KEYS, PRINCIPAL_SIGNING_KEY: testGatewayKeys.publicKeyEnv }),
      /PRINCIPAL_SIGNING_KEY must be an Ed25519 private key/,
    );
    assert.throws(
      () => decodeGatewayConfig({ ...KEYS, RATE_LIMIT_COSTLY: '30 per minute' }),
      /RATE_LIMIT_COSTLY must be <quota>\/<seconds>s/,
    );
    assert.throws(
      () => decodeGatewayConfig({ ...KEYS, INTROSPECTION_CACHE_SECONDS: '600' }),
      /INTROSPECTION_CACHE_SECONDS must be an integer between 0 and 60/,
    );
  });
});
