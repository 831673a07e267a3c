import * as E from 'fp-ts/lib/Either.js';
import type { PolicyStatus, RateDecision } from '@esign/contracts';

// The token buckets are shared with the notifier's message quotas (ADR 1320): one
// arithmetic, kept in @esign/contracts; the gateway's names stay where they were.
export {
  chargeAll,
  isFull,
  limited,
  refill,
  statusOf,
  type Bucket,
  type Charge,
  type PolicyStatus,
  type RateDecision,
  type RatePolicy,
} from '@esign/contracts';

/** A call refused by a rate limit: when to retry, and the standing under each policy. */
export interface RateLimited {
  readonly _tag: 'RateLimited';
  readonly retryAfterSeconds: number;
  readonly status: readonly PolicyStatus[];
}

/** The buckets' decision as the gateway's limiter answers it: the standing, or the refusal. */
export const rateOutcome = (decision: RateDecision): E.Either<RateLimited, readonly PolicyStatus[]> =>
  decision._tag === 'Allowed'
    ? E.right(decision.status)
    : E.left({ _tag: 'RateLimited', retryAfterSeconds: decision.retryAfterSeconds, status: decision.status });
