import type { PageOf, PageRequest } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { DeveloperApp, SessionUser } from '../domain/model.js';
import { checkPassword } from './check-password.js';
import type { Deps } from './deps.js';

/** One of the user's own apps; someone else's is as absent as a missing one. */
export const findOwnApp =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, DeveloperApp> =>
  async () => {
    const app = await deps.apps.find(appId)();
    return app === undefined || app.userId !== userId ? E.left(notFound('app', appId)) : E.right(app);
  };

/**
 * One of the user's own apps, once they have re-entered their password: what minting a
 * credential for it (an access token, a client secret) requires.
 */
export const ownAppWithPassword =
  (deps: Deps) =>
  (session: SessionUser, appId: string, password: string): TE.TaskEither<AuthError, DeveloperApp> =>
  async () => {
    const app = await findOwnApp(deps)(session.userId, appId)();
    if (E.isLeft(app)) return app;
    const user = await deps.accounts.findCredentials(session.email)();
    const checked = await checkPassword(deps)({
      email: session.email,
      password,
      passwordHash: user?.passwordHash,
      wrong: { _tag: 'WrongPassword' },
    })();
    return E.isLeft(checked) ? checked : app;
  };

export const listOwnApps =
  (deps: Deps) =>
  (userId: string, page: PageRequest): TE.TaskEither<AuthError, PageOf<DeveloperApp>> =>
  async () =>
    E.right(await deps.apps.listByUser(userId, page)());
