import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { Deps } from './deps.js';

/** The unauthenticated endpoints that cost a password derivation or a database look-up. */
export type AnonymousDoor = 'sign_in' | 'oauth_token';

/**
 * Counts one unauthenticated call against its client's limit and everyone's (per minute,
 * in Postgres so every replica shares them); over either, 429 with how long to wait.
 */
export const admitAnonymous =
  (deps: Pick<Deps, 'quota' | 'clock' | 'policy'>) =>
  (input: { readonly door: AnonymousDoor; readonly client: string }): TE.TaskEither<AuthError, void> =>
  async () => {
    const limits = deps.policy.anonymous;
    const wait = await deps.quota.take(
      [
        { key: `${input.door}:client:${input.client}`, max: limits.perClientPerMinute },
        { key: `${input.door}:all`, max: limits.globalPerMinute },
      ],
      60,
      deps.clock.now(),
    )();
    return wait === undefined ? E.right(undefined) : E.left({ _tag: 'RateLimited', retryAfterSeconds: wait });
  };
