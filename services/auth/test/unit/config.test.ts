import assert from 'node:assert/strict';
import { ConfigError, decodeConfig } from '@esign/platform';
import { Config, defaults } from '../../src/config.js';

const base = {
  INTROSPECTION_SECRET: 'i'.repeat(32),
  KEY_ENCRYPTION_KEYS: `k1:${'k'.repeat(32)}`,
};

describe('auth configuration', () => {
  it('has defaults for everything but the two secrets', () => {
    const config = decodeConfig(Config, defaults, base);
    assert.equal(config.PORT, 8081);
    assert.equal(config.TOKEN_ISSUER, 'esign-auth');
    assert.equal(config.ACCESS_TOKEN_TTL_DAYS, 90);
    assert.equal(config.CLIENT_CREDENTIALS_TTL_SECONDS, 3600);
    assert.equal(config.SESSION_TTL_SECONDS, 3600);
  });

  it('stops start-up naming each missing or wrong variable', () => {
    assert.throws(
      () => decodeConfig(Config, defaults, {}),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message.includes('KEY_ENCRYPTION_KEYS is required') &&
        e.message.includes('INTROSPECTION_SECRET is required'),
    );
    assert.throws(
      () =>
        decodeConfig(Config, defaults, {
          ...base,
          INTROSPECTION_SECRET: 'short',
          KEY_ENCRYPTION_KEYS: 'k1:short',
        }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message.includes('INTROSPECTION_SECRET must be at least 32 characters') &&
        e.message.includes('KEY_ENCRYPTION_KEYS secret of k1 must be at least 32 characters'),
    );
    assert.throws(
      () => decodeConfig(Config, defaults, { ...base, ACCESS_TOKEN_TTL_DAYS: '400' }),
      /ACCESS_TOKEN_TTL_DAYS/,
    );
  });
});
