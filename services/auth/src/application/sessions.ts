import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { PageOf, PageRequest } from '@esign/contracts';
import { notFound, type AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
import type { SessionSummary } from '../ports/session-repository.js';
import { pageOf } from './account-admin.js';
import type { Deps } from './deps.js';

/** One of the user's sessions, marked when it is the one that asks (ADR 3100). */
export interface ListedSession extends SessionSummary {
  readonly current: boolean;
}

/**
 * Where the user is signed in (ADR 3100): their sessions that have neither expired nor
 * ended, newest first, each with the address and User-Agent it signed in from.
 */
export const listSessions =
  (deps: Deps) =>
  (session: SessionUser, page: PageRequest): TE.TaskEither<AuthError, PageOf<ListedSession>> =>
    pipe(
      deps.sessions.listLive(session.userId, deps.clock.now()),
      TE.map((all) =>
        pageOf(
          all.map((s) => ({ ...s, current: s.id === session.sessionId })),
          page,
        ),
      ),
    );

/**
 * Ends one of the user's sessions, at once: its credential and the access tokens made for
 * it stop working. Ending the current one is signing out. Another user's session is
 * unknown (404) to them, as an unknown id is.
 */
export const endSession =
  (deps: Deps) =>
  (session: SessionUser, id: string): TE.TaskEither<AuthError, void> =>
    pipe(
      deps.sessions.endOwn(session.userId, id, deps.clock.now()),
      TE.flatMap((outcome) =>
        outcome === 'unknown' ? TE.left(notFound('session', id)) : TE.right(undefined),
      ),
    );

/** Signs the user out everywhere but here: every other live session ends; how many did. */
export const endOtherSessions =
  (deps: Deps) =>
  (session: SessionUser): TE.TaskEither<AuthError, number> =>
    deps.sessions.endOthers(session.userId, session.sessionId, deps.clock.now());
