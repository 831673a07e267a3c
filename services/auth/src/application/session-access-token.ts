import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
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
    pipe(
      ensureSigningKey(deps),
      TE.flatMap((key): TE.TaskEither<AuthError, SessionAccessToken> => {
        const issuedAt = truncateToSecond(deps.clock.now());
        const expiresAt = truncateToSecond(session.expiresAt);
        const expiresIn = Math.round((expiresAt.getTime() - issuedAt.getTime()) / 1000);
        if (expiresIn <= 0) return TE.left({ _tag: 'SessionInvalid' });
        return pipe(
          deps.signer.sign(key.kid, {
            sub: session.userId,
            jti: sessionTokenId(session.sessionId, key.kid),
            client_id: SESSION_CLIENT_ID,
            iat: issuedAt.getTime() / 1000,
            exp: expiresAt.getTime() / 1000,
          }),
          TE.map((accessToken) => ({ accessToken, expiresAt, expiresIn })),
        );
      }),
    );
