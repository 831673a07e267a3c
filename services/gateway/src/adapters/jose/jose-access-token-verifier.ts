import * as E from 'fp-ts/lib/Either.js';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_TYPE, JWKS_PATH } from '@esign/contracts';
import type { Logger } from '@esign/platform';
import { AccessTokenClaims, CLOCK_TOLERANCE_SECONDS } from '../../domain/access-token.js';
import type { AccessTokenVerifier, VerifyFailure } from '../../ports/access-token-verifier.js';

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

/** The key set could not be had; kept apart from the token's own faults. */
class KeySetUnavailable extends Error {
  override readonly name = 'KeySetUnavailable';
}

const rejected = (reason: 'malformed' | 'expired' | 'invalid'): VerifyFailure => ({
  _tag: 'TokenRejected',
  reason,
});

/**
 * Verifies access tokens offline against auth's JWKS (jose's remote key set: fetched on
 * first use, cached, fetched again on an unknown `kid` at most once per cooldown, so a
 * flood of forged `kid`s cannot hammer auth). EdDSA only: `alg: none`, HS256 signed
 * with the public key and every other algorithm are refused before any key is looked up.
 */
export const joseAccessTokenVerifier = (options: JoseVerifierOptions): AccessTokenVerifier => {
  const remote = createRemoteJWKSet(new URL(JWKS_PATH, options.authUrl), {
    cooldownDuration: options.cooldownMs,
    cacheMaxAge: options.cacheMaxAgeMs,
    timeoutDuration: options.timeoutMs,
  });
  const getKey: JWTVerifyGetKey = async (header, token) => {
    if (typeof header.kid !== 'string' || header.kid === '') {
      throw new errors.JWSInvalid('the access token names no key (kid)');
    }
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
        throw error;
      options.logger.warn({ err: error }, 'JWKS unavailable');
      throw new KeySetUnavailable('JWKS unavailable', { cause: error });
    }
  };

  return (token) => async () => {
    try {
      const { payload } = await jwtVerify(token, getKey, {
        algorithms: ['EdDSA'],
        typ: ACCESS_TOKEN_TYPE,
        issuer: options.issuer,
        audience: ACCESS_TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      const claims = AccessTokenClaims.decode(payload);
      return E.isRight(claims) ? E.right(claims.right) : E.left(rejected('invalid'));
    } catch (error) {
      if (error instanceof KeySetUnavailable) return E.left({ _tag: 'KeysUnavailable' } as const);
      if (error instanceof errors.JWTExpired) return E.left(rejected('expired'));
      if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid)
        return E.left(rejected('malformed'));
      if (error instanceof errors.JOSEError) return E.left(rejected('invalid'));
      throw error;
    }
  };
};
