import * as E from 'fp-ts/lib/Either.js';

/**
 * Password attempts against one e-mail address. Each attempt is counted *before* the
 * password is checked (so a burst of parallel guesses counts in full), and a correct
 * password clears the count. The first `freeAttempts` go unhindered; after that each
 * attempt must wait a delay that doubles, up to `maxDelaySeconds`. The count is
 * forgotten after `quietSeconds` without an attempt; that is longer than the longest
 * delay, so waiting out the longest delay does not also wipe the count.
 */
export interface ThrottlePolicy {
  readonly freeAttempts: number;
  readonly firstDelaySeconds: number;
  readonly maxDelaySeconds: number;
  readonly quietSeconds: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  freeAttempts: 5,
  firstDelaySeconds: 30,
  maxDelaySeconds: 15 * 60,
  quietSeconds: 60 * 60,
};

/**
 * The per-address cap (issue #18, MEDIUM 7, ADR 1303): attempts on one e-mail address
 * from every client together. Generous, and its delay never exceeds a minute, so guessers
 * spread over many IP addresses are slowed to about one guess a minute per account while
 * they can never lock its owner out for longer than that. The long, doubling lock-out
 * (`DEFAULT_THROTTLE`) is keyed per (e-mail, client address): it stops one source
 * guessing, and only ever blocks that source.
 */
export const PER_EMAIL_CAP: ThrottlePolicy = {
  freeAttempts: 20,
  firstDelaySeconds: 5,
  maxDelaySeconds: 60,
  quietSeconds: 60 * 60,
};

/** Limits on unauthenticated calls (sign-in, token requests) per client address and in all. */
export interface AnonymousLimits {
  readonly perClientPerMinute: number;
  readonly globalPerMinute: number;
}

export const DEFAULT_ANONYMOUS_LIMITS: AnonymousLimits = { perClientPerMinute: 60, globalPerMinute: 1200 };

export interface AttemptState {
  readonly attempts: number;
  readonly lastAttemptAt: Date;
  readonly blockedUntil: Date | null;
}

export interface Blocked {
  readonly retryAfterSeconds: number;
}

const seconds = (ms: number) => ms / 1000;

/** The delay imposed after the `attempts`-th attempt, or 0 while attempts are free. */
export const delayAfter = (attempts: number, policy: ThrottlePolicy = DEFAULT_THROTTLE): number => {
  const over = attempts - policy.freeAttempts;
  if (over < 0) return 0;
  // 2 ** over overflows to Infinity long before it matters; min() keeps it bounded.
  return Math.min(policy.firstDelaySeconds * 2 ** over, policy.maxDelaySeconds);
};

/**
 * Decides one attempt: blocked (with how long to wait), or allowed with the state to
 * store. A blocked attempt is not counted, so waiting it out is always enough.
 */
export const registerAttempt = (
  state: AttemptState | undefined,
  now: Date,
  policy: ThrottlePolicy = DEFAULT_THROTTLE,
): E.Either<Blocked, AttemptState> => {
  if (state?.blockedUntil != null && state.blockedUntil.getTime() > now.getTime()) {
    return E.left({
      retryAfterSeconds: Math.max(1, Math.ceil(seconds(state.blockedUntil.getTime() - now.getTime()))),
    });
  }
  const quiet =
    state === undefined || seconds(now.getTime() - state.lastAttemptAt.getTime()) > policy.quietSeconds;
  const attempts = quiet ? 1 : state.attempts + 1;
  const delay = delayAfter(attempts, policy);
  return E.right({
    attempts,
    lastAttemptAt: now,
    blockedUntil: delay > 0 ? new Date(now.getTime() + delay * 1000) : null,
  });
};
