import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { Pool } from 'undici';
import { testLogger } from '@esign/testing';
import { httpTokenIntrospector } from '../../src/adapters/http/http-token-introspector.js';
import { AuthUnavailable } from '../../src/ports/auth-unavailable.js';
import { startAuthDouble, type AuthDouble } from '../support/auth-double.js';
import { closedPort } from '../support/http-double.js';
import { INTROSPECTION_SECRET } from '../support/gateway-under-test.js';

describe('gateway: token introspection over HTTP', () => {
  let auth: AuthDouble;
  const pools: Pool[] = [];
  const introspectorFor = (url: string, secret = INTROSPECTION_SECRET) => {
    const pool = new Pool(url);
    pools.push(pool);
    return httpTokenIntrospector({ pool, basePath: '', secret, timeoutMs: 300, logger: testLogger() });
  };

  before(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
  });
  afterEach(() => {
    auth.state.mode = 'up';
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await auth.close();
  });

  it('asks with the internal secret and decodes active and inactive answers', async () => {
    const introspect = introspectorFor(auth.url);
    auth.answer('tok-1', { active: true, sub: 'u1', token_id: 'tok-1', sites: [{ id: 3, name: 'Three' }] });
    assert.deepEqual(
      await introspect('tok-1')(),
      E.right({ active: true, sub: 'u1', token_id: 'tok-1', sites: [{ id: 3, name: 'Three' }] }),
    );
    assert.deepEqual(await introspect('tok-unknown')(), E.right({ active: false }));
    const last = auth.received.at(-1)!;
    assert.equal(last.headers.authorization, `Bearer ${INTROSPECTION_SECRET}`);
    assert.deepEqual(JSON.parse(last.body.toString()), { token_id: 'tok-unknown' });
  });

  it('rejects as unavailable, never active, on refusal, error, nonsense, silence or no connection', async () => {
    const unavailable = (error: unknown) => error instanceof AuthUnavailable;
    await assert.rejects(
      introspectorFor(auth.url, 'wrong-secret-wrong-secret-wrong-secret')('t')(),
      unavailable,
    );
    for (const mode of ['error', 'garbage', 'hang'] as const) {
      auth.state.mode = mode;
      await assert.rejects(introspectorFor(auth.url)('t')(), unavailable, mode);
    }
    await assert.rejects(introspectorFor(await closedPort())('t')(), unavailable);
  });
});
