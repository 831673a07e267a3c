/**
 * Token buckets: a policy allows `quota` calls at once and refills at `quota` per
 * `windowSeconds`, so a client may burst up to the quota and then sustain the rate.
 * Times are milliseconds; nothing here reads a clock.
 */
export interface RatePolicy {
  /** Names the policy in `RateLimit-Policy` / `RateLimit` headers. */
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

export interface Bucket {
  readonly tokens: number;
  readonly updatedAt: number;
}

/** Where a policy stands for the caller after this call. */
export interface PolicyStatus {
  readonly policy: RatePolicy;
  /** Whole calls left now. */
  readonly remaining: number;
  /** Seconds until the bucket is full again. */
  readonly resetSeconds: number;
}

export interface Charge {
  readonly policy: RatePolicy;
  /** The caller's bucket, `undefined` when it has none yet (a full one). */
  readonly bucket: Bucket | undefined;
}

export type RateDecision =
  | {
      readonly _tag: 'Allowed';
      readonly buckets: readonly Bucket[];
      readonly status: readonly PolicyStatus[];
    }
  | {
      readonly _tag: 'Limited';
      readonly retryAfterSeconds: number;
      readonly status: readonly PolicyStatus[];
    };

const perMs = (policy: RatePolicy): number => policy.quota / (policy.windowSeconds * 1000);
/** Milliseconds to refill `tokens`, multiplied before dividing so whole answers stay whole. */
const msFor = (policy: RatePolicy, tokens: number): number =>
  (tokens * policy.windowSeconds * 1000) / policy.quota;

/** The bucket as it stands at `now`, refilled for the time since it was last touched. */
export const refill = (policy: RatePolicy, bucket: Bucket | undefined, now: number): Bucket => {
  if (bucket === undefined) return { tokens: policy.quota, updatedAt: now };
  const elapsed = Math.max(0, now - bucket.updatedAt);
  return { tokens: Math.min(policy.quota, bucket.tokens + elapsed * perMs(policy)), updatedAt: now };
};

/** The caller's standing under `policy` with `tokens` left (shared with the Redis adapter). */
export const statusOf = (policy: RatePolicy, tokens: number): PolicyStatus => ({
  policy,
  remaining: Math.max(0, Math.floor(tokens)),
  resetSeconds: Math.max(0, Math.ceil(msFor(policy, policy.quota - tokens) / 1000)),
});

/**
 * Takes one token from every bucket, or from none: a call refused by one policy must
 * not use up the caller's allowance under the others.
 */
export const chargeAll = (charges: readonly Charge[], now: number): RateDecision => {
  const current = charges.map(({ policy, bucket }) => refill(policy, bucket, now));
  let retryAfterMs = 0;
  charges.forEach(({ policy }, i) => {
    const missing = 1 - current[i]!.tokens;
    if (missing > 0) retryAfterMs = Math.max(retryAfterMs, msFor(policy, missing));
  });
  if (retryAfterMs > 0)
    return limited(
      charges.map(({ policy }, i) => statusOf(policy, current[i]!.tokens)),
      retryAfterMs,
    );
  const buckets = current.map((b) => ({ tokens: b.tokens - 1, updatedAt: now }));
  return {
    _tag: 'Allowed',
    buckets,
    status: charges.map(({ policy }, i) => statusOf(policy, buckets[i]!.tokens)),
  };
};

/** A refusal: `retryAfterMs` until one call is back under every policy that refused. */
export const limited = (status: readonly PolicyStatus[], retryAfterMs: number): RateDecision => ({
  _tag: 'Limited',
  retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
  status,
});

/** A bucket that has refilled completely carries no state worth keeping. */
export const isFull = (policy: RatePolicy, bucket: Bucket, now: number): boolean =>
  refill(policy, bucket, now).tokens >= policy.quota;
