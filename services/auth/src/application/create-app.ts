import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { DeveloperApp } from '../domain/model.js';
import type { Deps } from './deps.js';
import { findOwnApp } from './own-app.js';

/** A Developer App for `userId`: a name is all it needs; a callback URL opens the authorization-code grant to it. */
export const createApp =
  (deps: Deps) =>
  (input: {
    readonly userId: string;
    readonly name: string;
    readonly callbackUrl?: string | null;
  }): TE.TaskEither<AuthError, DeveloperApp> =>
  async () => {
    const user = await deps.accounts.findUser(input.userId)();
    if (user === undefined) return E.left(notFound('user', input.userId));
    const app = await deps.apps.create({
      id: deps.secrets.uuid(),
      userId: user.id,
      name: input.name.trim(),
      clientSecretCreatedAt: null,
      createdAt: deps.clock.now(),
      disabledAt: null,
      callbackUrl: input.callbackUrl ?? null,
    })();
    return E.right(app);
  };

/** Sets or (null) removes the callback URL of one of the user's own apps. */
export const setCallbackUrl =
  (deps: Deps) =>
  (userId: string, appId: string, callbackUrl: string | null): TE.TaskEither<AuthError, DeveloperApp> =>
  async () => {
    const app = await findOwnApp(deps)(userId, appId)();
    if (E.isLeft(app)) return app;
    const updated = await deps.apps.setCallbackUrl(app.right.id, callbackUrl)();
    return updated === undefined ? E.left(notFound('app', appId)) : E.right(updated);
  };
