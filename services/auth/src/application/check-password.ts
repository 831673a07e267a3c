import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import { normalizePassword } from '../domain/password-policy.js';
import { registerAttempt } from '../domain/throttle.js';
import type { Deps } from './deps.js';

/** Attempts are counted per e-mail address, whichever door (sign-in or re-entry) they come through. */
export const attemptKey = (email: string): string => `email:${email.toLowerCase()}`;

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
  }): TE.TaskEither<AuthError, void> =>
  async () => {
    const decision = await deps.attempts.register(attemptKey(input.email), (state) =>
      registerAttempt(state, deps.clock.now(), deps.policy.throttle),
    )();
    if (E.isLeft(decision))
      return E.left({ _tag: 'Throttled', retryAfterSeconds: decision.left.retryAfterSeconds });
    const password = normalizePassword(input.password);
    const ok =
      input.passwordHash === undefined
        ? await deps.hasher.verifyNobody(password)()
        : await deps.hasher.verify(password, input.passwordHash)();
    if (!ok) return E.left(input.wrong);
    await deps.attempts.clear(attemptKey(input.email))();
    return E.right(undefined);
  };
