import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { DeveloperApp } from '../domain/model.js';
import type { Deps } from './deps.js';

/** A Developer App for `userId`: a name is all it needs (no callback URL). */
export const createApp =
  (deps: Deps) =>
  (input: { readonly userId: string; readonly name: string }): TE.TaskEither<AuthError, DeveloperApp> =>
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
    })();
    return E.right(app);
  };
