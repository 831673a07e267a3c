import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import { sitesBeyondUser } from '../domain/tokens.js';
import type { SessionUser } from '../domain/model.js';
import { DAY_SECONDS } from '../domain/tokens.js';
import type { Deps } from './deps.js';
import { issueToken, type IssuedToken } from './issue-token.js';
import { ownAppWithPassword } from './own-app.js';

/**
 * The spec's flow: the signed-in user opens one of their apps, re-enters the account
 * password and gets an access token shown once. A wrong password creates nothing and
 * counts towards the throttle.
 */
export const createAccessToken =
  (deps: Deps) =>
  (input: {
    readonly session: SessionUser;
    readonly appId: string;
    readonly password: string;
    readonly name?: string;
    readonly expiresInDays?: number;
    /** Limit the token to these of the user's Sites (L10). */
    readonly siteIds?: readonly number[];
    /** The token may create only test-mode Requests (issue #22). */
    readonly testModeOnly?: boolean;
  }): TE.TaskEither<AuthError, IssuedToken> =>
    pipe(
      ownAppWithPassword(deps)(input.session, input.appId, input.password),
      TE.tap(() => sitesReachable(deps, input.session.userId, input.siteIds)),
      TE.flatMap((app) =>
        issueToken(deps)({
          userId: input.session.userId,
          appId: app.id,
          origin: 'self_service',
          name: input.name?.trim() ?? null,
          lifetimeSeconds: (input.expiresInDays ?? deps.policy.accessTokenTtlDays) * DAY_SECONDS,
          siteIds: input.siteIds ?? null,
          testModeOnly: input.testModeOnly ?? false,
        }),
      ),
    );

/** SitesNotReachable when the token would be limited to Sites beyond the user's own. */
const sitesReachable = (
  deps: Deps,
  userId: string,
  siteIds: readonly number[] | undefined,
): TE.TaskEither<AuthError, void> =>
  siteIds === undefined
    ? TE.right(undefined)
    : pipe(
        deps.sites.sitesOf(userId),
        TE.flatMap((sites): TE.TaskEither<AuthError, void> => {
          const beyond = sitesBeyondUser(siteIds, sites);
          return beyond.length > 0
            ? TE.left({ _tag: 'SitesNotReachable', siteIds: beyond })
            : TE.right(undefined);
        }),
      );
