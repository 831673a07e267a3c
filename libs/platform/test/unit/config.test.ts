import assert from 'node:assert/strict';
import * as t from 'io-ts';
import { ConfigError, decodeConfig, IntFromEnv, UrlFromEnv } from '../../src/index.js';

const Codec = t.type({ PORT: IntFromEnv(1, 65535), DATABASE_URL: UrlFromEnv('postgres') });

describe('platform: configuration', () => {
  it('fills defaults and decodes values', () => {
    assert.deepEqual(decodeConfig(Codec, { PORT: '8080' }, { DATABASE_URL: 'postgres://h/db' }), {
      PORT: 8080,
      DATABASE_URL: 'postgres://h/db',
    });
  });

  it('names every wrong or missing variable on one line', () => {
    assert.throws(
      () => decodeConfig(Codec, {}, { PORT: 'eighty' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message ===
          'invalid configuration: PORT must be an integer between 1 and 65535; DATABASE_URL is required' &&
        !error.message.includes('\n'),
    );
  });

  it('treats an empty variable as unset', () => {
    assert.equal(decodeConfig(Codec, { PORT: '1' }, { PORT: '', DATABASE_URL: 'postgres://h/db' }).PORT, 1);
  });
});
