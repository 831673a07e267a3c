import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { DeveloperApp } from '../domain/model.js';
import type { Deps } from './deps.js';
import { findOwnApp } from './own-app.js';
import { required } from './required.js';

/** A Developer App for `userId`: a name is all it needs; a callback URL opens the authorization-code grant to it. */
export const createApp =
  (deps: Deps) =>
  (input: {
    readonly userId: string;
    readonly name: string;
    readonly callbackUrl?: string | null;
  }): TE.TaskEither<AuthError, DeveloperApp> =>
    pipe(
      deps.accounts.findUser(input.userId),
      required(() => notFound('user', input.userId)),
      TE.flatMap((user) =>
        deps.apps.create({
          id: deps.secrets.uuid(),
          userId: user.id,
          name: input.name.trim(),
          clientSecretCreatedAt: null,
          createdAt: deps.clock.now(),
          disabledAt: null,
          callbackUrl: input.callbackUrl ?? null,
        }),
      ),
    );

/** Sets or (null) removes the callback URL of one of the user's own apps. */
export const setCallbackUrl =
  (deps: Deps) =>
  (userId: string, appId: string, callbackUrl: string | null): TE.TaskEither<AuthError, DeveloperApp> =>
    pipe(
      findOwnApp(deps)(userId, appId),
      TE.flatMap((app) =>
        pipe(
          deps.apps.setCallbackUrl(app.id, callbackUrl),
          required(() => notFound('app', appId)),
        ),
      ),
    );
