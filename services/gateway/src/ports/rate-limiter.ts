import type * as T from 'fp-ts/lib/Task.js';
import type { RateDecision, RatePolicy } from '../domain/token-bucket.js';

export interface RateCharge {
  readonly policy: RatePolicy;
  /** Whose bucket: a token id, a site id. */
  readonly key: string;
}

/**
 * Charges one call against every listed bucket at once, or against none. A Task so a
 * shared store (Redis) can stand behind it when the gateway runs as several replicas.
 */
export type RateLimiter = (charges: readonly RateCharge[]) => T.Task<RateDecision>;
