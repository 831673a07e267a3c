import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
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
    // Nothing is counted for an attempt the hasher could not take.
    deps.hasher.saturated()
      ? TE.left({ _tag: 'Busy' })
      : pipe(
          // The lock-out of this client first: a blocked client does not count against the address.
          deps.attempts.register(clientAttemptKey(input.email, input.client), (state) =>
            registerAttempt(state, deps.clock.now(), deps.policy.throttle),
          ),
          TE.flatMap(() =>
            deps.attempts.register(attemptKey(input.email), (state) =>
              registerAttempt(state, deps.clock.now(), deps.policy.emailThrottle),
            ),
          ),
          TE.mapLeft((blocked): AuthError => ({
            _tag: 'Throttled',
            retryAfterSeconds: blocked.retryAfterSeconds,
          })),
          TE.flatMap(() => {
            const password = normalizePassword(input.password);
            return input.passwordHash === undefined
              ? deps.hasher.verifyNobody(password)
              : deps.hasher.verify(password, input.passwordHash);
          }),
          TE.filterOrElse(
            (ok) => ok,
            () => input.wrong,
          ),
          TE.flatMap(() => deps.attempts.clear(clientAttemptKey(input.email, input.client))),
          TE.flatMap(() => deps.attempts.clear(attemptKey(input.email))),
        );
