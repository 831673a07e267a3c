import { flow } from 'fp-ts/lib/function.js';
import * as T from 'fp-ts/lib/Task.js';
import { memoryRateLimiter as memoryBuckets, type MillisClock } from '@esign/platform';
import { rateOutcome } from '../../domain/token-bucket.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';

/** The gateway's limiter over this process's own buckets (the platform's, shared with the notifier). */
export const memoryRateLimiter = (options: {
  readonly now: MillisClock;
  readonly maxBuckets: number;
}): RateLimiter => flow(memoryBuckets(options), T.map(rateOutcome));
