import { APP_CHANGED, type AppChange, type AppChanged } from '@esign/contracts';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
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

/**
 * The e-mail that tells an app's owner what an operator did to it (ADR 3120), unless the
 * owner is disabled (nothing of theirs works anyway).
 */
const toldOwner = (deps: Deps, app: DeveloperApp, change: AppChange): TE.TaskEither<never, AppChanged[]> =>
  pipe(
    deps.accounts.findUser(app.userId),
    TE.map((owner) =>
      O.isSome(owner) && owner.value.disabledAt === null
        ? [
            {
              id: deps.secrets.uuid(),
              type: APP_CHANGED,
              occurred_at: deps.clock.now().toISOString(),
              aggregate_id: app.id,
              data: { email: owner.value.email, app_name: app.name, change },
            },
          ]
        : [],
    ),
  );

/** Any app: for the operator (`delete-app`); its owner is told (ADR 3120). */
export const deleteAnyApp =
  (deps: Deps) =>
  (appId: string): TE.TaskEither<AuthError, DeveloperApp> =>
    pipe(
      deps.apps.find(appId),
      required(() => notFound('app', appId)),
      TE.tap((app) =>
        pipe(
          toldOwner(deps, app, 'deleted'),
          TE.flatMap((notices) => deps.apps.remove(app.id, deps.clock.now(), notices)),
        ),
      ),
    );

/**
 * Suspends (or restores) any app (`disable-app`, `enable-app`): its tokens stop (or
 * resume) at once; nothing is deleted. Its owner is told when it changes (ADR 3120).
 */
export const setAppDisabled =
  (deps: Deps) =>
  (input: { readonly appId: string; readonly disabled: boolean }): TE.TaskEither<AuthError, DeveloperApp> =>
    pipe(
      deps.apps.find(input.appId),
      required(() => notFound('app', input.appId)),
      TE.flatMap((app) => toldOwner(deps, app, input.disabled ? 'disabled' : 'enabled')),
      TE.flatMap((notices) =>
        deps.apps.setDisabled(input.appId, input.disabled ? deps.clock.now() : null, notices),
      ),
      required(() => notFound('app', input.appId)),
    );
