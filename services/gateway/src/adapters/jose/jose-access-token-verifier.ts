import * as E from 'fp-ts/lib/Either.js';
import { JWKS_PATH } from '@esign/contracts';
import { accessTokenKeys, verifyAccessToken, type Logger } from '@esign/platform';
import { CLOCK_TOLERANCE_SECONDS } from '../../domain/access-token.js';
import type { AccessTokenVerifier } from '../../ports/access-token-verifier.js';
import { AuthUnavailable } from '../../ports/auth-unavailable.js';

export interface JoseVerifierOptions {
  readonly authUrl: string;
  readonly issuer: string;
  /** Least time between two fetches of the key set forced by an unknown `kid`. */
  readonly cooldownMs: number;
  /** The key set is fetched again once it is this old, even when every `kid` is known. */
  readonly cacheMaxAgeMs: number;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * The gateway's port over the platform's one access-token check (`verifyAccessToken`:
 * EdDSA pinned, `typ`, `iss`, `aud`, `exp`, against auth's JWKS, fetched again on an
 * unknown `kid` at most once per cooldown). Maps its reasons to what the client is told;
 * a key set it cannot fetch rejects the task with `AuthUnavailable`.
 */
export const joseAccessTokenVerifier = (options: JoseVerifierOptions): AccessTokenVerifier => {
  const keys = accessTokenKeys(new URL(JWKS_PATH, options.authUrl), {
    cooldownMs: options.cooldownMs,
    cacheMaxAgeMs: options.cacheMaxAgeMs,
    timeoutMs: options.timeoutMs,
  });
  return (token) => async () => {
    const verified = await verifyAccessToken(keys, token, {
      issuer: options.issuer,
      clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
    });
    if (E.isRight(verified)) return verified;
    const { reason, detail } = verified.left;
    if (reason === 'keys_unavailable') {
      options.logger.warn({ err: detail }, 'JWKS unavailable');
      throw new AuthUnavailable('JWKS', { cause: detail });
    }
    return E.left({
      _tag: 'TokenRejected',
      reason: reason === 'expired' || reason === 'malformed' ? reason : 'invalid',
    });
  };
};
