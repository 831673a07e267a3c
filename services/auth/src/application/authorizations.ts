import type { PageOf, PageRequest } from '@esign/contracts';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
import type { Authorization } from '../ports/oauth-repository.js';
import type { Deps } from './deps.js';

/** The apps the user has authorised and that can still act for them. */
export const listAuthorizations =
  (deps: Deps) =>
  (session: SessionUser, page: PageRequest): TE.TaskEither<AuthError, PageOf<Authorization>> =>
    deps.oauth.listAuthorizations(session.userId, deps.clock.now(), page);

/**
 * Withdraws everything the user granted the app: its refresh tokens stop at once, its
 * access tokens within the gateway's introspection cache bound. Revoking an app that
 * holds nothing is not an error.
 */
export const revokeAuthorization =
  (deps: Deps) =>
  (session: SessionUser, clientId: string): TE.TaskEither<AuthError, void> =>
    pipe(
      deps.oauth.revokeApp(session.userId, clientId, deps.clock.now()),
      TE.map(() => undefined),
    );
