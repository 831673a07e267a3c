import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { Deps } from './deps.js';

/** The unauthenticated endpoints that cost a password derivation or a database look-up. */
export type AnonymousDoor = 'sign_in' | 'oauth_token' | 'password_reset' | 'invitation';

/**
 * Counts one unauthenticated call against its client's limit and everyone's (per minute,
 * in Postgres so every replica shares them); over either, 429 with how long to wait.
 */
export const admitAnonymous =
  (deps: Pick<Deps, 'quota' | 'clock' | 'policy'>) =>
  (input: { readonly door: AnonymousDoor; readonly client: string }): TE.TaskEither<AuthError, void> => {
    const limits = deps.policy.anonymous;
    return pipe(
      deps.quota.take(
        [
          { key: `${input.door}:client:${input.client}`, max: limits.perClientPerMinute },
          { key: `${input.door}:all`, max: limits.globalPerMinute },
        ],
        60,
        deps.clock.now(),
      ),
      TE.flatMap(
        O.match(
          (): TE.TaskEither<AuthError, void> => TE.right(undefined),
          (wait) => TE.left<AuthError, void>({ _tag: 'RateLimited', retryAfterSeconds: wait }),
        ),
      ),
    );
  };
