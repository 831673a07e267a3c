import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { TokenIntrospection } from '@esign/contracts';
import { introspect, parseSessionTokenId } from '../domain/tokens.js';
import type { Deps } from './deps.js';

/**
 * The gateway's question for every call it has not answered in the last few seconds:
 * is this token good now, and which sites does its user reach now. Nothing is cached
 * here, so a revocation or a removed membership shows in the very next answer. A
 * session's access token is judged by its session.
 */
export const introspectToken =
  (deps: Deps) =>
  (tokenId: string): TE.TaskEither<never, TokenIntrospection> => {
    const now = deps.clock.now();
    const ofSession = parseSessionTokenId(tokenId);
    return ofSession !== undefined
      ? pipe(
          deps.sessions.introspectionSubject(ofSession.sessionId, ofSession.kid),
          // The answer names the token as the gateway asked about it.
          TE.map((subject) =>
            introspect(
              pipe(
                subject,
                O.map((found) => ({ ...found, tokenId })),
                O.toUndefined,
              ),
              now,
            ),
          ),
        )
      : pipe(
          deps.tokens.introspectionSubject(tokenId),
          TE.map((subject) => introspect(O.toUndefined(subject), now)),
          TE.tapIO((answer) => () => {
            if (answer.active) deps.usage.record(tokenId, now);
          }),
        );
  };
