import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
import { SESSION_ACTIVITY_EVERY_SECONDS, sessionActivityDue } from '../domain/sessions.js';
import type { SessionRecord } from '../ports/session-repository.js';
import type { Deps } from './deps.js';
import { SESSION_PREFIX } from './sign-in.js';

/**
 * The self-service API's gate: a live session of an enabled user whose account has API
 * access, checked on every call so a change takes effect at once. A use it lets through
 * is the session's activity, written down at most once a minute (ADR 3110).
 */
export const authenticateSession =
  (deps: Deps) =>
  (sessionToken: string | undefined): TE.TaskEither<AuthError, SessionUser> => {
    if (sessionToken === undefined || sessionToken === '') return TE.left({ _tag: 'SessionRequired' });
    if (!sessionToken.startsWith(SESSION_PREFIX) || sessionToken.length > 200)
      return TE.left({ _tag: 'SessionInvalid' });
    const now = deps.clock.now();
    return pipe(
      deps.sessions.findByFingerprint(deps.secrets.fingerprint(sessionToken)),
      TE.flatMap((found) => TE.fromEither(usableSession(found, now))),
      TE.tap((session) => recordSessionActivity(deps, session.id, session.lastActiveAt, now)),
      TE.map(sessionUser),
    );
  };

/**
 * Writes down a use of session `id` at `now` when the last one written is more than a
 * minute old (ADR 3110); otherwise nothing, not even a statement. The write's own guard
 * keeps uses at the same moment on other replicas from writing twice.
 */
export const recordSessionActivity = (
  deps: Deps,
  id: string,
  lastActiveAt: Date | null,
  now: Date,
): TE.TaskEither<never, void> =>
  sessionActivityDue(lastActiveAt, now)
    ? pipe(
        deps.sessions.recordActivity(id, now, SESSION_ACTIVITY_EVERY_SECONDS),
        TE.map(() => undefined),
      )
    : TE.right(undefined);

/** A live session of a user who may use the API. */
const usableSession = (found: O.Option<SessionRecord>, now: Date): E.Either<AuthError, SessionRecord> => {
  if (O.isNone(found)) return E.left({ _tag: 'SessionInvalid' });
  const session = found.value;
  if (session.revokedAt !== null || session.expiresAt.getTime() <= now.getTime())
    return E.left({ _tag: 'SessionInvalid' });
  if (session.userDisabled) return E.left({ _tag: 'UserDisabled' });
  if (!session.apiAccess) return E.left({ _tag: 'ApiAccessRequired' });
  return E.right(session);
};

/** The session as the use cases see it. */
const sessionUser = (session: SessionRecord): SessionUser => ({
  sessionId: session.id,
  userId: session.userId,
  accountId: session.accountId,
  email: session.email,
  expiresAt: session.expiresAt,
  accountAdmin: session.accountAdmin,
});

export const signOut =
  (deps: Deps) =>
  (session: SessionUser): TE.TaskEither<AuthError, void> =>
    deps.sessions.revoke(session.sessionId, deps.clock.now());
