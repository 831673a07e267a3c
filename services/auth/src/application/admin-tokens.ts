import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import { DAY_SECONDS } from '../domain/tokens.js';
import type { Deps } from './deps.js';
import { issueToken, type IssuedToken } from './issue-token.js';

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
  async () => {
    const app = await deps.apps.find(input.appId)();
    if (app === undefined) return E.left(notFound('app', input.appId));
    const owner = await deps.accounts.findUser(app.userId)();
    if (owner === undefined) return E.left(notFound('user', app.userId));
    if (owner.disabledAt !== null) return E.left({ _tag: 'UserDisabled' });
    const account = await deps.accounts.findAccount(owner.accountId)();
    if (account?.apiAccess !== true) return E.left({ _tag: 'ApiAccessRequired' });
    return E.right(
      await issueToken(deps)({
        userId: app.userId,
        appId: app.id,
        origin: 'admin',
        name: input.name?.trim() ?? null,
        lifetimeSeconds: (input.expiresInDays ?? deps.policy.accessTokenTtlDays) * DAY_SECONDS,
        testModeOnly: input.testModeOnly ?? false,
      })(),
    );
  };
