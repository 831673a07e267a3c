import { chargeAll, isFull, type Bucket, type RatePolicy } from '@esign/contracts';

import type { MillisClock, RateLimiter } from './rate-limiter.js';

interface Entry {
  readonly policy: RatePolicy;
  readonly bucket: Bucket;
}

/**
 * Token buckets in this process's memory. Right for one replica; with N replicas
 * behind a balancer each enforces its own buckets, so a client gets up to N times the
 * quota (see docs/adr/0403). Buckets that have refilled completely are dropped when the
 * map grows past `maxBuckets`, so memory stays bounded by the callers active in a window.
 */
export const memoryRateLimiter = (options: {
  readonly now: MillisClock;
  readonly maxBuckets: number;
}): RateLimiter => {
  const buckets = new Map<string, Entry>();

  const sweep = (now: number) => {
    for (const [key, entry] of buckets) if (isFull(entry.policy, entry.bucket, now)) buckets.delete(key);
    // Still too many callers at once: forget the least recently charged (they start afresh).
    for (const key of buckets.keys()) {
      if (buckets.size < options.maxBuckets) break;
      buckets.delete(key);
    }
  };

  return (charges) => () => {
    const now = options.now();
    const keys = charges.map(({ policy, key }) => `${policy.name}\u0000${key}`);
    const decision = chargeAll(
      charges.map(({ policy }, i) => ({ policy, bucket: buckets.get(keys[i]!)?.bucket })),
      now,
    );
    if (decision._tag === 'Allowed') {
      if (buckets.size + keys.length > options.maxBuckets) sweep(now);
      decision.buckets.forEach((bucket, i) => {
        const key = keys[i]!;
        // Re-inserted so the map's order stays "least recently charged first".
        buckets.delete(key);
        buckets.set(key, { policy: charges[i]!.policy, bucket });
      });
    }
    return Promise.resolve(decision);
  };
};
