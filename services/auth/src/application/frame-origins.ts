import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { FrameOriginsView } from '@esign/contracts';
import { notFound, type AuthError } from '../domain/errors.js';
import type { Deps } from './deps.js';
import { findOwnApp } from './own-app.js';

/** The origins that may frame the embedded signing pages of one of the user's own apps. */
export const getFrameOrigins =
  (deps: Deps) =>
  (userId: string, appId: string): TE.TaskEither<AuthError, FrameOriginsView> =>
    pipe(
      findOwnApp(deps)(userId, appId),
      TE.flatMap((app) =>
        pipe(
          deps.frameOrigins.get(app.id),
          TE.map((origins) => ({ app_id: app.id, allowed_frame_origins: [...origins] })),
        ),
      ),
    );

/**
 * Replaces the list (ADR 2300). Tokens already issued see the new list at their next
 * introspection, within the gateway's short cache.
 */
export const setFrameOrigins =
  (deps: Deps) =>
  (userId: string, appId: string, origins: readonly string[]): TE.TaskEither<AuthError, FrameOriginsView> =>
    pipe(
      findOwnApp(deps)(userId, appId),
      TE.flatMap((app) =>
        pipe(
          deps.frameOrigins.set(app.id, origins),
          TE.filterOrElse(
            (set) => set,
            () => notFound('app', appId),
          ),
          TE.map(() => ({ app_id: app.id, allowed_frame_origins: [...origins] })),
        ),
      ),
    );
