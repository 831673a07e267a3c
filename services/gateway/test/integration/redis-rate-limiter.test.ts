import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { eventually, redisKeyPrefix, redisUrl, startTcpProxy, testLogger } from '@esign/testing';
import * as E from 'fp-ts/lib/Either.js';
import type { PolicyStatus, RateLimited, RatePolicy } from '../../src/domain/token-bucket.js';
import { createRateLimiter, type RateLimiterHandle } from '../../src/adapters/redis/create-rate-limiter.js';
import { memoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import type { RateCharge, RateLimiter } from '../../src/ports/rate-limiter.js';

const perMinute: RatePolicy = { name: 'token', quota: 4, windowSeconds: 60 };
const costly: RatePolicy = { name: 'costly', quota: 1, windowSeconds: 60 };

const standing = (status: readonly PolicyStatus[]) =>
  status.map((s) => `${s.policy.name} r=${s.remaining} t=${s.resetSeconds}`);

/** Tags, retry-afters and standings, comparable across adapters. */
const summary = (outcome: E.Either<RateLimited, readonly PolicyStatus[]>) =>
  E.isRight(outcome)
    ? { tag: 'Allowed', retryAfter: undefined, status: standing(outcome.right) }
    : { tag: 'Limited', retryAfter: outcome.left.retryAfterSeconds, status: standing(outcome.left.status) };

describe('gateway: rate limits shared in Redis (real Redis)', function () {
  let now = 1_700_000_000_000;
  const handles: RateLimiterHandle[] = [];
  const limiter = (settings: { redisUrl?: string; keyPrefix: string; replicas?: number }): RateLimiter => {
    const handle = createRateLimiter(
      {
        redisUrl: settings.redisUrl ?? redisUrl(),
        keyPrefix: settings.keyPrefix,
        // Generous: a starved event loop must not send a call to the fallback at random.
        timeoutMs: 10_000,
        replicas: settings.replicas ?? 2,
      },
      {
        now: () => now,
        logger: testLogger('gateway'),
        enabled: true,
        maxLocalBuckets: 1000,
      },
    );
    handles.push(handle);
    return handle.limit;
  };
  const charge = async (limit: RateLimiter, charges: readonly RateCharge[]) =>
    summary(await limit(charges)());
  const run = async (
    limit: RateLimiter,
    steps: ReadonlyArray<{ advanceMs: number; charges: RateCharge[] }>,
  ) => {
    const answers = [];
    for (const step of steps) {
      now += step.advanceMs;
      answers.push(await charge(limit, step.charges));
    }
    return answers;
  };

  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.close()));
  });

  it('answers exactly what the in-memory buckets of ADR 0403 answer, call for call', async () => {
    const both = [
      { policy: perMinute, key: 'tok' },
      { policy: costly, key: 'tok' },
    ];
    const one = [{ policy: perMinute, key: 'tok' }];
    const steps = [
      { advanceMs: 0, charges: both },
      { advanceMs: 0, charges: both }, // costly is empty: refused, and the token bucket is not spent
      { advanceMs: 1, charges: one },
      { advanceMs: 0, charges: one },
      { advanceMs: 0, charges: one },
      { advanceMs: 0, charges: one }, // token bucket empty
      { advanceMs: 15_000, charges: one }, // one call back every 15 s
      { advanceMs: 0, charges: one },
      { advanceMs: 60_000, charges: both },
    ];
    const start = now;
    const fromRedis = await run(limiter({ keyPrefix: redisKeyPrefix('rl') }), steps);
    now = start;
    const fromMemory = await run(memoryRateLimiter({ now: () => now, maxBuckets: 100 }), steps);
    assert.deepEqual(fromRedis, fromMemory);
    assert.deepEqual(
      fromRedis.map((a) => a.tag),
      ['Allowed', 'Limited', 'Allowed', 'Allowed', 'Allowed', 'Limited', 'Allowed', 'Limited', 'Allowed'],
    );
    assert.equal(fromRedis[1]!.retryAfter, 60);
    assert.equal(fromRedis[5]!.retryAfter, 15);
  });

  it('is one set of buckets for every replica, and keeps them no longer than a window', async () => {
    const keyPrefix = redisKeyPrefix('rl');
    const replicas = [limiter({ keyPrefix }), limiter({ keyPrefix }), limiter({ keyPrefix })];
    const policy: RatePolicy = { name: 'site', quota: 10, windowSeconds: 3600 };
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => charge(replicas[i % 3]!, [{ policy, key: '7' }])),
    );
    assert.equal(answers.filter((a) => a.tag === 'Allowed').length, 10);
    const redis = new Redis(redisUrl());
    try {
      const ttl = await redis.pttl(`${keyPrefix}site:7`);
      assert.ok(ttl > 0 && ttl <= 3_600_000, `expires within a window (pttl ${ttl})`);
    } finally {
      redis.disconnect();
    }
  });

  it('mints nothing when replicas whose clocks differ take turns', async () => {
    const keyPrefix = redisKeyPrefix('rl');
    const policy: RatePolicy = { name: 'token', quota: 2, windowSeconds: 2 }; // one call back per second
    const ahead = limiter({ keyPrefix });
    const base = now;
    let allowed = 0;
    // One replica's clock runs 900 ms ahead of the other's; five seconds of alternating calls.
    for (let ms = 0; ms < 5000; ms += 100) {
      const clockAhead = ms % 200 === 0;
      now = base + ms + (clockAhead ? 900 : 0);
      if ((await charge(ahead, [{ policy, key: 'skew' }])).tag === 'Allowed') allowed += 1;
    }
    // The burst of 2 plus one per second of the leading clock (5.9 s), never one per turn.
    assert.ok(allowed <= 2 + 6, `allowed ${allowed}`);
    assert.ok(allowed >= 2 + 4, `allowed ${allowed}`);
  });

  it('falls back to 1/N of each limit in this replica while Redis is away, and shares again after', async () => {
    const proxy = await startTcpProxy(Number(new URL(redisUrl()).port || 6379));
    try {
      const keyPrefix = redisKeyPrefix('rl');
      const policy: RatePolicy = { name: 'token', quota: 6, windowSeconds: 3600 };
      const limit = limiter({ redisUrl: `redis://127.0.0.1:${proxy.port}`, keyPrefix, replicas: 3 });
      assert.equal((await charge(limit, [{ policy, key: 'a' }])).tag, 'Allowed'); // shared: 5 left

      proxy.cut();
      const degraded = await charge(limit, [{ policy, key: 'a' }]);
      assert.deepEqual(degraded.status, ['token r=1 t=1800'], 'a local bucket of 6/3 = 2 calls per hour');
      assert.equal((await charge(limit, [{ policy, key: 'a' }])).tag, 'Allowed');
      const refused = await charge(limit, [{ policy, key: 'a' }]);
      assert.equal(refused.tag, 'Limited');
      assert.equal(refused.retryAfter, 1800);

      proxy.restore();
      // ioredis reconnects by itself; the shared bucket still has the 5 it had.
      const shared = await eventually(
        async () => {
          const answer = await charge(limit, [{ policy, key: 'a' }]);
          return answer.status[0]!.startsWith('token r=4') ? answer : undefined;
        },
        20_000,
        100,
      );
      assert.equal(shared.tag, 'Allowed');
    } finally {
      await Promise.all(handles.splice(0).map((h) => h.close()));
      await proxy.close();
    }
  });

  it('starts degraded, not stuck, when Redis is not there at all', async () => {
    const closed = await startTcpProxy(1); // accepts, then cannot reach anything: a dead Redis
    closed.cut();
    try {
      const limit = limiter({
        redisUrl: `redis://127.0.0.1:${closed.port}`,
        keyPrefix: redisKeyPrefix('rl'),
      });
      const answer = await charge(limit, [{ policy: perMinute, key: 'x' }]);
      assert.deepEqual(answer, { tag: 'Allowed', retryAfter: undefined, status: ['token r=1 t=30'] });
    } finally {
      await Promise.all(handles.splice(0).map((h) => h.close()));
      await closed.close();
    }
  });
});
