import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { RateCharge } from '@esign/platform';
import type { PolicyStatus, RateLimited } from '../domain/token-bucket.js';

// A charge names a policy and a bucket, as the platform's limiter takes it (ADR 1320).
export type { RateCharge };

/**
 * Charges one call against every listed bucket at once, or against none: the standing
 * under each policy when the call may go, `RateLimited` when a bucket is empty.
 */
export type RateLimiter = (
  charges: readonly RateCharge[],
) => TE.TaskEither<RateLimited, readonly PolicyStatus[]>;
