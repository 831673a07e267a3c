import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
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
  async () => {
    const app = await ownAppWithPassword(deps)(input.session, input.appId, input.password)();
    if (E.isLeft(app)) return app;
    return E.right(await issueClientSecret(deps)(app.right.id)());
  };

/** Without any check: for the operator's CLI and after the checks above. */
export const issueClientSecret = (deps: Deps) => (appId: string) => async (): Promise<IssuedSecret> => {
  const clientSecret = deps.secrets.newSecret(CLIENT_SECRET_PREFIX);
  const createdAt = deps.clock.now();
  await deps.apps.setClientSecret(appId, deps.secrets.fingerprint(clientSecret), createdAt)();
  return { clientId: appId, clientSecret, createdAt };
};

export const removeClientSecret =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, void> =>
  async () => {
    const app = await findOwnApp(deps)(userId, appId)();
    if (E.isLeft(app)) return app;
    await deps.apps.setClientSecret(appId, null, deps.clock.now())();
    return E.right(undefined);
  };
