import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
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
  async () => {
    const app = await ownAppWithPassword(deps)(input.session, input.appId, input.password)();
    if (E.isLeft(app)) return app;
    if (input.siteIds !== undefined) {
      const beyond = sitesBeyondUser(input.siteIds, await deps.sites.sitesOf(input.session.userId)());
      if (beyond.length > 0) return E.left({ _tag: 'SitesNotReachable', siteIds: beyond });
    }
    return E.right(
      await issueToken(deps)({
        userId: input.session.userId,
        appId: app.right.id,
        origin: 'self_service',
        name: input.name?.trim() ?? null,
        lifetimeSeconds: (input.expiresInDays ?? deps.policy.accessTokenTtlDays) * DAY_SECONDS,
        siteIds: input.siteIds ?? null,
        testModeOnly: input.testModeOnly ?? false,
      })(),
    );
  };
