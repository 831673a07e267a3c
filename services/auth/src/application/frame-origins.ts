import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { FrameOriginsView } from '@esign/contracts';
import { notFound, type AuthError } from '../domain/errors.js';
import type { Deps } from './deps.js';
import { findOwnApp } from './own-app.js';

/** The origins that may frame the embedded signing pages of one of the user's own apps. */
export const getFrameOrigins =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, FrameOriginsView> =>
  async () => {
    const app = await findOwnApp(deps)(userId, appId)();
    if (E.isLeft(app)) return app;
    const origins = await deps.frameOrigins.get(app.right.id)();
    return E.right({ app_id: app.right.id, allowed_frame_origins: [...origins] });
  };

/**
 * Replaces the list (ADR 2300). Tokens already issued see the new list at their next
 * introspection, within the gateway's short cache.
 */
export const setFrameOrigins =
  (deps: Deps) =>
  (userId: string, appId: string, origins: readonly string[]): TE.TaskEither<AuthError, FrameOriginsView> =>
  async () => {
    const app = await findOwnApp(deps)(userId, appId)();
    if (E.isLeft(app)) return app;
    if (!(await deps.frameOrigins.set(app.right.id, origins)())) return E.left(notFound('app', appId));
    return E.right({ app_id: app.right.id, allowed_frame_origins: [...origins] });
  };
