import type * as T from 'fp-ts/lib/Task.js';
import type { RateDecision, RatePolicy } from '@esign/contracts';

/** Milliseconds since the epoch; injected so buckets can be tested without waiting. */
export type MillisClock = () => number;

export interface RateCharge {
  readonly policy: RatePolicy;
  /** Whose bucket: a token id, a site id, a recipient's fingerprint. */
  readonly key: string;
}

/**
 * Charges one call against every listed bucket at once, or against none. A Task so a
 * shared store (Redis) can stand behind it when a service runs as several replicas.
 */
export type RateLimiter = (charges: readonly RateCharge[]) => T.Task<RateDecision>;
