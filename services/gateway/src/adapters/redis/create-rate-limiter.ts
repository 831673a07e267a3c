import { flow } from 'fp-ts/lib/function.js';
import * as T from 'fp-ts/lib/Task.js';
import {
  createRateLimiter as createSharedBuckets,
  memoryRateLimiter,
  type Logger,
  type MillisClock,
  type RateLimiterSettings,
} from '@esign/platform';
import { rateOutcome } from '../../domain/token-bucket.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';

export interface RateLimiterHandle {
  readonly limit: RateLimiter;
  readonly close: () => Promise<void>;
}

/**
 * The gateway's limiter over the platform's buckets in Redis, shared by the fleet and
 * with the notifier (ADR 1320), falling back to this replica's own `maxLocalBuckets`
 * while Redis is away (ADR 0903). No connection is made when `enabled` is false.
 */
export const createRateLimiter = (
  settings: RateLimiterSettings,
  deps: {
    readonly now: MillisClock;
    readonly logger: Logger;
    readonly enabled: boolean;
    readonly maxLocalBuckets: number;
  },
): RateLimiterHandle => {
  const shared = createSharedBuckets(settings, {
    now: deps.now,
    logger: deps.logger,
    enabled: deps.enabled,
    local: memoryRateLimiter({ now: deps.now, maxBuckets: deps.maxLocalBuckets }),
  });
  return { limit: flow(shared.limit, T.map(rateOutcome)), close: shared.close };
};
