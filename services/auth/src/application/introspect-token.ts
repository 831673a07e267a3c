import type * as T from 'fp-ts/lib/Task.js';
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
  (tokenId: string): T.Task<TokenIntrospection> =>
  async () => {
    const now = deps.clock.now();
    const ofSession = parseSessionTokenId(tokenId);
    if (ofSession !== undefined) {
      const subject = await deps.sessions.introspectionSubject(ofSession.sessionId, ofSession.kid)();
      // The answer names the token as the gateway asked about it.
      return introspect(subject && { ...subject, tokenId }, now);
    }
    const answer = introspect(await deps.tokens.introspectionSubject(tokenId)(), now);
    if (answer.active) deps.usage.record(tokenId, now);
    return answer;
  };
