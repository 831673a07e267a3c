import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { DeveloperApp } from '../domain/model.js';
import type { Deps } from './deps.js';
import { findOwnApp } from './own-app.js';

/** Deletes one of the user's apps; every token it holds stops working at once. */
export const deleteApp =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, void> =>
  async () => {
    const app = await findOwnApp(deps)(userId, appId)();
    if (E.isLeft(app)) return app;
    await deps.apps.remove(app.right.id, deps.clock.now())();
    return E.right(undefined);
  };

/** Any app: for the operator. */
export const deleteAnyApp =
  (deps: Deps) =>
  (appId: string): TE.TaskEither<AuthError, DeveloperApp> =>
  async () => {
    const app = await deps.apps.find(appId)();
    if (app === undefined) return E.left(notFound('app', appId));
    await deps.apps.remove(app.id, deps.clock.now())();
    return E.right(app);
  };

/** Suspends (or restores) any app: its tokens stop (or resume) at once; nothing is deleted. */
export const setAppDisabled =
  (deps: Deps) =>
  (input: { readonly appId: string; readonly disabled: boolean }): TE.TaskEither<AuthError, DeveloperApp> =>
  async () => {
    const app = await deps.apps.setDisabled(input.appId, input.disabled ? deps.clock.now() : null)();
    return app === undefined ? E.left(notFound('app', input.appId)) : E.right(app);
  };
