import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
import type { Deps } from './deps.js';
import { findOwnApp, ownAppWithPassword } from './own-app.js';

export const CLIENT_SECRET_PREFIX = 'ecs_';

export interface IssuedSecret {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly createdAt: Date;
}

/** Makes (or replaces) an app's client secret; minting credentials needs the password again. */
export const setClientSecret =
  (deps: Deps) =>
  (input: {
    readonly session: SessionUser;
    readonly appId: string;
    readonly password: string;
  }): TE.TaskEither<AuthError, IssuedSecret> =>
    pipe(
      ownAppWithPassword(deps)(input.session, input.appId, input.password),
      TE.flatMap((app) => issueClientSecret(deps)(app.id)),
    );

/** Without any check: for the operator's CLI and after the checks above. */
export const issueClientSecret =
  (deps: Deps) =>
  (appId: string): TE.TaskEither<never, IssuedSecret> => {
    const clientSecret = deps.secrets.newSecret(CLIENT_SECRET_PREFIX);
    const createdAt = deps.clock.now();
    return pipe(
      deps.apps.setClientSecret(appId, deps.secrets.fingerprint(clientSecret), createdAt),
      TE.map(() => ({ clientId: appId, clientSecret, createdAt })),
    );
  };

export const removeClientSecret =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, void> =>
    pipe(
      findOwnApp(deps)(userId, appId),
      TE.flatMap(() => deps.apps.setClientSecret(appId, null, deps.clock.now())),
    );
