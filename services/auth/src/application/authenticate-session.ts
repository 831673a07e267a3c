import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
import type { SessionRecord } from '../ports/session-repository.js';
import type { Deps } from './deps.js';
import { SESSION_PREFIX } from './sign-in.js';

/**
 * The self-service API's gate: a live session of an enabled user whose account has API
 * access, checked on every call so a change takes effect at once.
 */
export const authenticateSession =
  (deps: Deps) =>
  (sessionToken: string | undefined): TE.TaskEither<AuthError, SessionUser> =>
    sessionToken === undefined || sessionToken === ''
      ? TE.left({ _tag: 'SessionRequired' })
      : !sessionToken.startsWith(SESSION_PREFIX) || sessionToken.length > 200
        ? TE.left({ _tag: 'SessionInvalid' })
        : pipe(
            deps.sessions.findByFingerprint(deps.secrets.fingerprint(sessionToken)),
            TE.flatMap((found) => TE.fromEither(sessionUser(found, deps.clock.now()))),
          );

/** A live session of a user who may use the API, as the use cases see it. */
const sessionUser = (found: O.Option<SessionRecord>, now: Date): E.Either<AuthError, SessionUser> => {
  if (O.isNone(found)) return E.left({ _tag: 'SessionInvalid' });
  const session = found.value;
  if (session.revokedAt !== null || session.expiresAt.getTime() <= now.getTime())
    return E.left({ _tag: 'SessionInvalid' });
  if (session.userDisabled) return E.left({ _tag: 'UserDisabled' });
  if (!session.apiAccess) return E.left({ _tag: 'ApiAccessRequired' });
  return E.right({
    sessionId: session.id,
    userId: session.userId,
    accountId: session.accountId,
    email: session.email,
    expiresAt: session.expiresAt,
    accountAdmin: session.accountAdmin,
  });
};

export const signOut =
  (deps: Deps) =>
  (session: SessionUser): TE.TaskEither<AuthError, void> =>
    deps.sessions.revoke(session.sessionId, deps.clock.now());
