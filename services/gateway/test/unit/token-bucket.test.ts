import assert from 'node:assert/strict';
import { chargeAll, refill, type Bucket, type RatePolicy } from '../../src/domain/token-bucket.js';

const perMinute: RatePolicy = { name: 'token', quota: 3, windowSeconds: 60 };
const strict: RatePolicy = { name: 'costly', quota: 1, windowSeconds: 60 };

const charge = (policy: RatePolicy, bucket: Bucket | undefined, now: number) =>
  chargeAll([{ policy, bucket }], now);

describe('gateway: token buckets', () => {
  it('allows a burst up to the quota, then refuses with the wait until one call is back', () => {
    let bucket: Bucket | undefined;
    for (let i = 2; i >= 0; i--) {
      const decision = charge(perMinute, bucket, 0);
      assert.equal(decision._tag, 'Allowed');
      if (decision._tag !== 'Allowed') return;
      bucket = decision.buckets[0];
      assert.equal(decision.status[0]!.remaining, i);
    }
    const refused = charge(perMinute, bucket, 0);
    assert.equal(refused._tag, 'Limited');
    if (refused._tag !== 'Limited') return;
    // 3 per 60 s: one call comes back every 20 s.
    assert.equal(refused.retryAfterSeconds, 20);
    assert.deepEqual(refused.status[0], { policy: perMinute, remaining: 0, resetSeconds: 60 });
  });

  it('refills with time, never above the quota', () => {
    assert.equal(refill(perMinute, { tokens: 0, updatedAt: 0 }, 10_000).tokens, 0.5);
    assert.equal(refill(perMinute, { tokens: 0, updatedAt: 0 }, 20_000).tokens, 1);
    assert.equal(refill(perMinute, { tokens: 2, updatedAt: 0 }, 3_600_000).tokens, 3);
    // A clock that steps back takes nothing away.
    assert.equal(refill(perMinute, { tokens: 1, updatedAt: 5_000 }, 0).tokens, 1);
    const after = charge(perMinute, { tokens: 0, updatedAt: 0 }, 25_000);
    assert.equal(after._tag, 'Allowed');
  });

  it('charges every policy or none: a refusal by one spends nothing of the others', () => {
    const empty: Bucket = { tokens: 0, updatedAt: 0 };
    const decision = chargeAll(
      [
        { policy: perMinute, bucket: undefined },
        { policy: strict, bucket: empty },
      ],
      0,
    );
    assert.equal(decision._tag, 'Limited');
    if (decision._tag !== 'Limited') return;
    assert.equal(decision.retryAfterSeconds, 60);
    assert.deepEqual(
      decision.status.map((s) => [s.policy.name, s.remaining]),
      [
        ['token', 3],
        ['costly', 0],
      ],
    );
  });
});
