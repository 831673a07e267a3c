import type { Logger } from '../logger.js';
import type { RatePolicy } from '@esign/contracts';
import type { RateCharge, RateLimiter } from './rate-limiter.js';
import type { SharedCharge } from './redis-rate-limiter.js';

/**
 * The fleet's buckets in Redis while Redis answers; this replica's own buckets at 1/N of
 * every limit while it does not (ADR 0903). Failing open keeps a Redis outage from
 * becoming an API outage, and the 1/N share keeps the fleet as a whole near the limits
 * it promises (a balancer spreads callers over the N replicas).
 */
export const sharedRateLimiter = (options: {
  readonly shared: SharedCharge;
  /** Whether Redis can be asked now (waits for the very first connection). */
  readonly available: () => Promise<boolean>;
  /** In-memory buckets, charged with the 1/N policies. */
  readonly local: RateLimiter;
  readonly replicas: number;
  readonly logger: Logger;
  /** Names the limits in the two log lines (default `rate limits`). */
  readonly label?: string;
}): RateLimiter => {
  const { logger, replicas } = options;
  const label = options.label ?? 'rate limits';
  const scaled = new Map<RatePolicy, RatePolicy>();
  const share = (policy: RatePolicy): RatePolicy => {
    let local = scaled.get(policy);
    if (local === undefined) {
      local = { ...policy, quota: Math.max(1, Math.floor(policy.quota / replicas)) };
      scaled.set(policy, local);
    }
    return local;
  };
  // One line when limits move to this replica and one when they move back, not one per call.
  let degraded = false;
  const fallBack = (reason: unknown) => {
    if (degraded) return;
    degraded = true;
    logger.warn(
      { err: reason, replicas },
      `${label}: Redis does not answer, each replica now enforces 1/N of every limit on its own`,
    );
  };

  return (charges: readonly RateCharge[]) => async () => {
    if (await options.available()) {
      try {
        const decision = await options.shared(charges);
        if (degraded) {
          degraded = false;
          logger.info(`${label}: Redis answers again, limits are shared by every replica`);
        }
        return decision;
      } catch (error) {
        fallBack(error);
      }
    } else {
      fallBack(new Error('not connected to Redis'));
    }
    return options.local(charges.map(({ policy, key }) => ({ policy: share(policy), key })))();
  };
};
