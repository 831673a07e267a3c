import * as E from 'fp-ts/lib/Either.js';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_TYPE,
  AccessTokenClaims,
  formatErrors,
  renderErrors,
} from '@esign/contracts';

export type { JWTVerifyGetKey };

/**
 * Why an access token was refused. All but `keys_unavailable` are the caller's fault
 * (answer 401); `keys_unavailable` means the JWKS could not be fetched (answer 503).
 */
export type AccessTokenFailure =
  | { readonly reason: 'malformed'; readonly detail: string }
  | { readonly reason: 'algorithm_not_allowed'; readonly detail: string }
  | { readonly reason: 'unknown_key'; readonly detail: string }
  | { readonly reason: 'bad_signature'; readonly detail: string }
  | { readonly reason: 'expired'; readonly detail: string }
  | { readonly reason: 'invalid_claims'; readonly detail: string }
  | { readonly reason: 'keys_unavailable'; readonly detail: string };

/** The only algorithm auth signs with. Pinned, so `alg: none` and HS256-with-the-public-key are refused up front. */
export const ACCESS_TOKEN_ALGORITHMS = ['EdDSA'] as const;

// A genuine token is a few hundred bytes; anything far larger is not worth parsing.
const MAX_TOKEN_LENGTH = 4096;

export interface AccessTokenKeysOptions {
  /** Abort a JWKS fetch after this long. */
  readonly timeoutMs?: number;
  /** An unknown `kid` refetches the JWKS at most this often (so forged kids cannot hammer auth). */
  readonly cooldownMs?: number;
  /** Refetch the JWKS at least this often. */
  readonly cacheMaxAgeMs?: number;
}

/**
 * Auth's public keys, fetched from its JWKS and cached. A token signed by a key not yet
 * in the cache makes it refetch (after the cooldown), so a rotated key is picked up
 * without a restart.
 */
export const accessTokenKeys = (
  jwksUrl: string | URL,
  options: AccessTokenKeysOptions = {},
): JWTVerifyGetKey => {
  const remote = createRemoteJWKSet(new URL(jwksUrl), {
    timeoutDuration: options.timeoutMs ?? 2_000,
    cooldownDuration: options.cooldownMs ?? 30_000,
    cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
  });
  // Auth always names its key; a token without `kid` is not one of ours.
  return (header, token) => {
    if (typeof header.kid !== 'string' || header.kid === '') {
      throw new joseErrors.JWSInvalid('the access token names no key (kid)');
    }
    return remote(header, token);
  };
};

export interface VerifyAccessTokenOptions {
  /** `TOKEN_ISSUER`, the same value auth signs with. */
  readonly issuer: string;
  readonly audience?: string;
  readonly clockToleranceSeconds?: number;
  /** For tests: the time to verify at. */
  readonly currentDate?: Date;
}

const failure = (reason: AccessTokenFailure['reason'], detail: string) =>
  E.left<AccessTokenFailure>({ reason, detail });

/**
 * Verifies an access token's signature against auth's keys and checks `alg` (EdDSA
 * only), `typ` (`at+jwt`), `iss`, `aud`, `exp`, and that every claim the platform relies
 * on is present. It says nothing about revocation or scope: introspection does that.
 */
export const verifyAccessToken = async (
  keys: JWTVerifyGetKey,
  token: string,
  options: VerifyAccessTokenOptions,
): Promise<E.Either<AccessTokenFailure, AccessTokenClaims>> => {
  if (token.length > MAX_TOKEN_LENGTH) return failure('malformed', 'token too long');
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: [...ACCESS_TOKEN_ALGORITHMS],
      typ: ACCESS_TOKEN_TYPE,
      issuer: options.issuer,
      audience: options.audience ?? ACCESS_TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'jti', 'iat', 'exp', 'client_id'],
      clockTolerance: options.clockToleranceSeconds ?? 5,
      ...(options.currentDate === undefined ? {} : { currentDate: options.currentDate }),
    });
    const claims = AccessTokenClaims.decode(payload);
    return E.isRight(claims)
      ? E.right(claims.right)
      : failure('invalid_claims', renderErrors(formatErrors(claims.left)));
  } catch (error) {
    return E.left(classify(error));
  }
};

const classify = (error: unknown): AccessTokenFailure => {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof joseErrors.JWTExpired) return { reason: 'expired', detail };
  if (error instanceof joseErrors.JWTClaimValidationFailed) return { reason: 'invalid_claims', detail };
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return { reason: 'algorithm_not_allowed', detail };
  if (error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWKSMultipleMatchingKeys)
    return { reason: 'unknown_key', detail };
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return { reason: 'bad_signature', detail };
  if (
    error instanceof joseErrors.JWSInvalid ||
    error instanceof joseErrors.JWTInvalid ||
    error instanceof joseErrors.JOSENotSupported
  )
    return { reason: 'malformed', detail };
  // Whatever remains is the JWKS fetch: a timeout, a refused connection, a non-200, bad JSON.
  return { reason: 'keys_unavailable', detail };
};
