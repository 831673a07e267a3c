import type { PageOf, PageRequest } from '@esign/contracts';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { DeveloperApp, SessionUser } from '../domain/model.js';
import { checkPassword } from './check-password.js';
import type { Deps } from './deps.js';
import { required } from './required.js';

/** One of the user's own apps; someone else's is as absent as a missing one. */
export const findOwnApp =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, DeveloperApp> =>
    pipe(
      deps.apps.find(appId),
      TE.map(O.filter((app) => app.userId === userId)),
      required(() => notFound('app', appId)),
    );

/**
 * One of the user's own apps, once they have re-entered their password: what minting a
 * credential for it (an access token, a client secret) requires.
 */
export const ownAppWithPassword =
  (deps: Deps) =>
  (session: SessionUser, appId: string, password: string): TE.TaskEither<AuthError, DeveloperApp> =>
    pipe(
      findOwnApp(deps)(session.userId, appId),
      TE.tap(() =>
        pipe(
          deps.accounts.findCredentials(session.email),
          TE.flatMap((user) =>
            checkPassword(deps)({
              email: session.email,
              password,
              passwordHash: O.toUndefined(user)?.passwordHash,
              wrong: { _tag: 'WrongPassword' },
            }),
          ),
        ),
      ),
    );

export const listOwnApps =
  (deps: Deps) =>
  (userId: string, page: PageRequest): TE.TaskEither<AuthError, PageOf<DeveloperApp>> =>
    deps.apps.listByUser(userId, page);
