import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { DeveloperApp } from '../domain/model.js';
import type { Deps } from './deps.js';
import { findOwnApp } from './own-app.js';
import { required } from './required.js';

/** Deletes one of the user's apps; every token it holds stops working at once. */
export const deleteApp =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, void> =>
    pipe(
      findOwnApp(deps)(userId, appId),
      TE.flatMap((app) => deps.apps.remove(app.id, deps.clock.now())),
    );

/** Any app: for the operator. */
export const deleteAnyApp =
  (deps: Deps) =>
  (appId: string): TE.TaskEither<AuthError, DeveloperApp> =>
    pipe(
      deps.apps.find(appId),
      required(() => notFound('app', appId)),
      TE.tap((app) => deps.apps.remove(app.id, deps.clock.now())),
    );

/** Suspends (or restores) any app: its tokens stop (or resume) at once; nothing is deleted. */
export const setAppDisabled =
  (deps: Deps) =>
  (input: { readonly appId: string; readonly disabled: boolean }): TE.TaskEither<AuthError, DeveloperApp> =>
    pipe(
      deps.apps.setDisabled(input.appId, input.disabled ? deps.clock.now() : null),
      required(() => notFound('app', input.appId)),
    );
