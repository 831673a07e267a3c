import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  COMPOSE_SECRETS,
  ConfigError,
  decodeConfig,
  HttpsUrlFromEnv,
  IntFromEnv,
  PublicBaseUrlFromEnv,
  UrlFromEnv,
} from '../../src/index.js';

const Codec = t.type({ PORT: IntFromEnv(1, 65535), DATABASE_URL: UrlFromEnv('postgres') });

describe('platform: configuration', () => {
  it('L12: refuses a secret committed in docker-compose.yml unless ESIGN_LOCAL_DEVELOPMENT=true', () => {
    const url = 'postgres://postgres:postgres-compose-only@postgres:5432/esign_auth';
    assert.throws(
      () => decodeConfig(Codec, { PORT: '1' }, { DATABASE_URL: url }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /DATABASE_URL holds a secret committed in docker-compose\.yml/.test(e.message) &&
        /ESIGN_LOCAL_DEVELOPMENT=true/.test(e.message),
    );
    for (const secret of COMPOSE_SECRETS)
      assert.throws(() =>
        decodeConfig(Codec, { PORT: '1' }, { DATABASE_URL: 'postgres://h/db', ANY: `x${secret}x` }),
      );
    assert.throws(() =>
      decodeConfig(Codec, { PORT: '1' }, { DATABASE_URL: url, ESIGN_LOCAL_DEVELOPMENT: '1' }),
    );
    assert.equal(
      decodeConfig(Codec, { PORT: '1' }, { DATABASE_URL: url, ESIGN_LOCAL_DEVELOPMENT: 'true' }).DATABASE_URL,
      url,
    );
  });

  it('L12: takes https URLs, and plain http only to loopback', () => {
    for (const ok of ['https://api.example.com', 'http://127.0.0.1:1', 'http://localhost', 'http://[::1]:9'])
      assert.ok(E.isRight(HttpsUrlFromEnv.decode(ok)), ok);
    for (const bad of ['http://api.example.com', 'http://127.0.0.1.example.com', 'http://10.1.2.3', 'x'])
      assert.ok(E.isLeft(HttpsUrlFromEnv.decode(bad)), bad);
  });

  it('takes an http(s) origin as PUBLIC_BASE_URL, and refuses a path, a query or credentials', () => {
    for (const [given, kept] of [
      ['https://esign.example.com', 'https://esign.example.com'],
      ['https://esign.example.com/', 'https://esign.example.com'],
      ['HTTPS://Esign.Example.com:443', 'https://esign.example.com'],
      ['http://localhost:8080', 'http://localhost:8080'],
      ['http://[::1]:9/', 'http://[::1]:9'],
    ])
      assert.deepEqual(PublicBaseUrlFromEnv.decode(given), E.right(kept), given);
    for (const bad of [
      'https://esign.example.com/esign',
      'https://esign.example.com/app/',
      'https://esign.example.com/?x=1',
      'https://esign.example.com/?',
      'https://esign.example.com/#top',
      'https://user:pw@esign.example.com',
      'ftp://esign.example.com',
      'esign.example.com',
    ]) {
      const decoded = PublicBaseUrlFromEnv.decode(bad);
      assert.ok(E.isLeft(decoded), bad);
    }
    assert.throws(
      () =>
        decodeConfig(
          t.type({ PUBLIC_BASE_URL: PublicBaseUrlFromEnv }),
          {},
          {
            PUBLIC_BASE_URL: 'https://esign.example.com/esign',
          },
        ),
      (e: unknown) =>
        e instanceof ConfigError &&
        /PUBLIC_BASE_URL must be the public origin of the gateway .* no path, query or credentials/.test(
          e.message,
        ),
    );
  });

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
