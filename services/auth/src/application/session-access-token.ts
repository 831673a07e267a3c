import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
import { SESSION_CLIENT_ID, sessionTokenId, truncateToSecond } from '../domain/tokens.js';
import type { Deps } from './deps.js';
import { ensureSigningKey } from './ensure-signing-key.js';

export interface SessionAccessToken {
  readonly accessToken: string;
  readonly expiresAt: Date;
  readonly expiresIn: number;
}

/**
 * An access token for the signed-in session itself, so a client acting for a person (the
 * web application) can call the API as that person. It lives no longer than the session
 * and dies with it; it needs no password because it creates nothing that outlives the
 * session, unlike the tokens of a Developer App.
 */
export const sessionAccessToken =
  (deps: Deps) =>
  (session: SessionUser): TE.TaskEither<AuthError, SessionAccessToken> =>
  async () => {
    const key = await ensureSigningKey(deps)();
    const issuedAt = truncateToSecond(deps.clock.now());
    const expiresAt = truncateToSecond(session.expiresAt);
    const expiresIn = Math.round((expiresAt.getTime() - issuedAt.getTime()) / 1000);
    if (expiresIn <= 0) return E.left({ _tag: 'SessionInvalid' });
    const accessToken = await deps.signer.sign(key.kid, {
      sub: session.userId,
      jti: sessionTokenId(session.sessionId, key.kid),
      client_id: SESSION_CLIENT_ID,
      iat: issuedAt.getTime() / 1000,
      exp: expiresAt.getTime() / 1000,
    })();
    return E.right({ accessToken, expiresAt, expiresIn });
  };
