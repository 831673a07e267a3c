import * as E from 'fp-ts/lib/Either.js';
import type { Dispatcher } from 'undici';
import { INTROSPECTION_PATH, TokenIntrospection } from '@esign/contracts';
import type { Logger } from '@esign/platform';
import { AuthUnavailable } from '../../ports/auth-unavailable.js';
import type { TokenIntrospector } from '../../ports/token-introspector.js';

export interface HttpIntrospectorOptions {
  /** A keep-alive pool to auth, kept apart from the one that proxies client calls to it. */
  readonly pool: Dispatcher;
  /** A path prefix when auth is mounted below its origin's root. */
  readonly basePath: string;
  readonly secret: string;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * `POST {AUTH_URL}/internal/introspect` with the internal secret. Anything but a 200
 * that decodes as a `TokenIntrospection` in time rejects with `AuthUnavailable`: the
 * gateway then answers 503 and lets nothing through.
 */
export const httpTokenIntrospector = (options: HttpIntrospectorOptions): TokenIntrospector => {
  const path = `${options.basePath}${INTROSPECTION_PATH}`;
  const headers = {
    authorization: `Bearer ${options.secret}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  /** The answer, or `undefined` (logged) when auth gives none that can be used. */
  const ask = async (tokenId: string): Promise<TokenIntrospection | undefined> => {
    try {
      const response = await options.pool.request({
        method: 'POST',
        path,
        headers,
        body: JSON.stringify({ token_id: tokenId }),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (response.statusCode !== 200) {
        await response.body.dump();
        options.logger.error({ status: response.statusCode }, 'introspection refused');
        return undefined;
      }
      const answer = TokenIntrospection.decode(await response.body.json());
      if (E.isLeft(answer)) {
        options.logger.error('introspection answer does not decode');
        return undefined;
      }
      return answer.right;
    } catch (error) {
      options.logger.warn({ err: error }, 'introspection unavailable');
      return undefined;
    }
  };
  return (tokenId) => async () => {
    const answer = await ask(tokenId);
    if (answer === undefined) throw new AuthUnavailable('introspection');
    return E.right(answer);
  };
};
