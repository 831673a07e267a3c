import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { TokenIntrospection } from '@esign/contracts';
import { introspect, parseSessionTokenId } from '../domain/tokens.js';
import { recordSessionActivity } from './authenticate-session.js';
import type { Deps } from './deps.js';

/**
 * The gateway's question for every call it has not answered in the last few seconds:
 * is this token good now, and which sites does its user reach now. Nothing is cached
 * here, so a revocation or a removed membership shows in the very next answer. A
 * session's access token is judged by its session, and its use is the session's activity.
 */
export const introspectToken =
  (deps: Deps) =>
  (tokenId: string): TE.TaskEither<never, TokenIntrospection> => {
    const now = deps.clock.now();
    const ofSession = parseSessionTokenId(tokenId);
    return ofSession !== undefined
      ? pipe(
          deps.sessions.introspectionSubject(ofSession.sessionId, ofSession.kid),
          TE.flatMap((subject) => {
            // The answer names the token as the gateway asked about it.
            const found = O.toUndefined(subject);
            const answer = introspect(found && { ...found, tokenId }, now);
            // A use of the token is a use of its session (ADR 3110), at most once a minute.
            return found !== undefined && answer.active
              ? pipe(
                  recordSessionActivity(deps, ofSession.sessionId, found.lastActiveAt, now),
                  TE.map(() => answer),
                )
              : TE.right(answer);
          }),
        )
      : pipe(
          deps.tokens.introspectionSubject(tokenId),
          TE.map((subject) => introspect(O.toUndefined(subject), now)),
          TE.tapIO((answer) => () => {
            if (answer.active) deps.usage.record(tokenId, now);
          }),
        );
  };
