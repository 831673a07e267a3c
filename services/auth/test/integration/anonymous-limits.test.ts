import assert from 'node:assert/strict';
import request from 'supertest';
import { testLogger } from '@esign/testing';
import { scryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher.js';
import { createAuthHttpApp } from '../../src/adapters/http/app.js';
import { composeDeps } from '../../src/service.js';
import { INTERNAL_SECRET, startHarness, type Harness } from '../support/harness.js';

/**
 * Issue #18, MEDIUM 7, against real Postgres: per-client and global limits on the
 * unauthenticated endpoints, counted in the database every replica shares, and a full
 * hasher queue answering 503 at once.
 */
describe('MEDIUM 7: unauthenticated sign-in and token requests are limited (real Postgres)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('auth_anonymous_limits');
  });
  after(() => h.close());

  // A clock that stands still: every call falls in one window, however slow the machine.
  const appWith = (overrides: { saturated?: boolean; fixedAt: Date }) => {
    const hasher = scryptPasswordHasher({ logN: 10, r: 8, p: 1 });
    const { deps, usage } = composeDeps({
      pool: h.pool,
      logger: testLogger('auth'),
      config: h.config,
      clock: { now: () => overrides.fixedAt },
      hasher: overrides.saturated === true ? { ...hasher, saturated: () => true } : hasher,
      usageFlushMs: 3_600_000,
      anonymousLimits: { perClientPerMinute: 3, globalPerMinute: 5 },
    });
    void usage.stop();
    return createAuthHttpApp({
      deps,
      logger: testLogger('auth'),
      readiness: [],
      introspectionSecret: INTERNAL_SECRET,
    }).callback();
  };
  const signIn = (app: ReturnType<typeof appWith>, client: string) =>
    request(app)
      .post('/v1.1/sessions')
      .set('X-Forwarded-For', client)
      .send({ email: 'nobody@example.test', password: 'a wrong password' });

  it('MEDIUM 7: answers 429 rate_limited past the per-client limit, and past the global one', async () => {
    const app = appWith({ fixedAt: new Date('2031-05-05T10:00:10Z') });
    for (let i = 0; i < 3; i++) await signIn(app, '203.0.113.1').expect(401);
    const limited = await signIn(app, '203.0.113.1').expect(429);
    assert.equal(limited.body.code, 'rate_limited');
    assert.equal(limited.headers['retry-after'], '50');
    // Another client has its own count, until everyone together passes the global limit.
    // (Refused calls count too: 4 so far, so one more from anyone is the fifth and last.)
    await signIn(app, '203.0.113.2').expect(401);
    assert.equal((await signIn(app, '203.0.113.3').expect(429)).body.code, 'rate_limited');
    // The token endpoint has limits of its own.
    for (let i = 0; i < 3; i++)
      await request(app)
        .post('/oauth/token')
        .set('X-Forwarded-For', '203.0.113.1')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' })
        .expect(401);
    await request(app)
      .post('/oauth/token')
      .set('X-Forwarded-For', '203.0.113.1')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' })
      .expect(429);
    // A new minute, a new window.
    await signIn(appWith({ fixedAt: new Date('2031-05-05T10:01:10Z') }), '203.0.113.1').expect(401);
  });

  it('MEDIUM 7: answers 503 busy at once while the hasher queue is full', async () => {
    const res = await signIn(
      appWith({ saturated: true, fixedAt: new Date('2031-05-05T11:00:00Z') }),
      '198.51.100.1',
    ).expect(503);
    assert.equal(res.body.code, 'busy');
    assert.equal(res.headers['retry-after'], '1');
  });
});
