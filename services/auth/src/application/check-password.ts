import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import { normalizePassword } from '../domain/password-policy.js';
import { registerAttempt } from '../domain/throttle.js';
import type { Deps } from './deps.js';

/** Attempts are counted per e-mail address, whichever door (sign-in or re-entry) they come through. */
export const attemptKey = (email: string): string => `email:${email.toLowerCase()}`;

/**
 * And per (e-mail, client): the lock-out that only blocks the client that guesses. A
 * re-entry under a session (no client address given) counts as one client, "session".
 */
export const clientAttemptKey = (email: string, client: string | undefined): string =>
  `email-client:${email.toLowerCase()}|${client ?? 'session'}`;

/**
 * Checks a password under the throttle: the attempt is counted first, then the password
 * verified; a correct one clears the count. `passwordHash` undefined means no such user:
 * the same time is spent and the answer is the same.
 */
export const checkPassword =
  (deps: Deps) =>
  (input: {
    readonly email: string;
    readonly password: string;
    readonly passwordHash: string | undefined;
    readonly wrong: AuthError;
    /** The client's address, for sign-in; undefined for a re-entry under a session. */
    readonly client?: string;
  }): TE.TaskEither<AuthError, void> =>
  async () => {
    // Nothing is counted for an attempt the hasher could not take.
    if (deps.hasher.saturated()) return E.left({ _tag: 'Busy' });
    // The lock-out of this client first: a blocked client does not count against the address.
    const own = await deps.attempts.register(clientAttemptKey(input.email, input.client), (state) =>
      registerAttempt(state, deps.clock.now(), deps.policy.throttle),
    )();
    if (E.isLeft(own)) return E.left({ _tag: 'Throttled', retryAfterSeconds: own.left.retryAfterSeconds });
    const decision = await deps.attempts.register(attemptKey(input.email), (state) =>
      registerAttempt(state, deps.clock.now(), deps.policy.emailThrottle),
    )();
    if (E.isLeft(decision))
      return E.left({ _tag: 'Throttled', retryAfterSeconds: decision.left.retryAfterSeconds });
    const password = normalizePassword(input.password);
    const ok =
      input.passwordHash === undefined
        ? await deps.hasher.verifyNobody(password)()
        : await deps.hasher.verify(password, input.passwordHash)();
    if (!ok) return E.left(input.wrong);
    await deps.attempts.clear(clientAttemptKey(input.email, input.client))();
    await deps.attempts.clear(attemptKey(input.email))();
    return E.right(undefined);
  };
