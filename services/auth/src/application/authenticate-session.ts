import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
import type { Deps } from './deps.js';
import { SESSION_PREFIX } from './sign-in.js';

/**
 * The self-service API's gate: a live session of an enabled user whose account has API
 * access, checked on every call so a change takes effect at once.
 */
export const authenticateSession =
  (deps: Deps) =>
  (sessionToken: string | undefined): TE.TaskEither<AuthError, SessionUser> =>
  async () => {
    if (sessionToken === undefined || sessionToken === '') return E.left({ _tag: 'SessionRequired' });
    if (!sessionToken.startsWith(SESSION_PREFIX) || sessionToken.length > 200)
      return E.left({ _tag: 'SessionInvalid' });
    const session = await deps.sessions.findByFingerprint(deps.secrets.fingerprint(sessionToken))();
    const now = deps.clock.now();
    if (session === undefined || session.revokedAt !== null || session.expiresAt.getTime() <= now.getTime())
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
  async () => {
    await deps.sessions.revoke(session.sessionId, deps.clock.now())();
    return E.right(undefined);
  };
