import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { DeveloperApp, Page, PageRequest } from '../domain/model.js';
import type { Deps } from './deps.js';

/** One of the user's own apps; someone else's is as absent as a missing one. */
export const findOwnApp =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, DeveloperApp> =>
  async () => {
    const app = await deps.apps.find(appId)();
    return app === undefined || app.userId !== userId ? E.left(notFound('app', appId)) : E.right(app);
  };

export const listOwnApps =
  (deps: Deps) =>
  (userId: string, page: PageRequest): TE.TaskEither<AuthError, Page<DeveloperApp>> =>
  async () =>
    E.right(await deps.apps.listByUser(userId, page)());
