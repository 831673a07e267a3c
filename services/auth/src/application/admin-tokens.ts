import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import { DAY_SECONDS } from '../domain/tokens.js';
import type { Deps } from './deps.js';
import { issueToken, type IssuedToken } from './issue-token.js';
import { required } from './required.js';

/**
 * The operator's way to a token (scripts, a Kubernetes Job, `npm start`'s demo): no
 * password, since the operator holds the database; the owner must still be able to use it.
 */
export const createTokenForApp =
  (deps: Deps) =>
  (input: {
    readonly appId: string;
    readonly name?: string;
    readonly expiresInDays?: number;
    /** The token may create only test-mode Requests (issue #22). */
    readonly testModeOnly?: boolean;
  }): TE.TaskEither<AuthError, IssuedToken> =>
    pipe(
      deps.apps.find(input.appId),
      required(() => notFound('app', input.appId)),
      TE.flatMap((app) =>
        pipe(
          deps.accounts.findUser(app.userId),
          required(() => notFound('user', app.userId)),
          TE.filterOrElseW(
            (owner) => owner.disabledAt === null,
            (): AuthError => ({ _tag: 'UserDisabled' }),
          ),
          TE.flatMap((owner) => deps.accounts.findAccount(owner.accountId)),
          TE.filterOrElseW(
            (account) => O.isSome(account) && account.value.apiAccess,
            (): AuthError => ({ _tag: 'ApiAccessRequired' }),
          ),
          TE.flatMap(() =>
            issueToken(deps)({
              userId: app.userId,
              appId: app.id,
              origin: 'admin',
              name: input.name?.trim() ?? null,
              lifetimeSeconds: (input.expiresInDays ?? deps.policy.accessTokenTtlDays) * DAY_SECONDS,
              testModeOnly: input.testModeOnly ?? false,
            }),
          ),
        ),
      ),
    );
