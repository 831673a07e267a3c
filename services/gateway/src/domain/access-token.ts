import type { AccessTokenClaims } from '@esign/contracts';

/** The claims of a verified access token (one definition, in the contracts). */
export type { AccessTokenClaims };

/** Seconds of clock skew tolerated on `exp`, `iat` and `nbf` between auth and the gateway. */
export const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Whether a token has expired at `nowMs`. Checked on every call, also when the token's
 * signature check is reused from a cache.
 */
export const hasExpired = (claims: AccessTokenClaims, nowMs: number): boolean =>
  claims.exp + CLOCK_TOLERANCE_SECONDS <= nowMs / 1000;

/** Why a presented token is refused; each reads differently to the client. */
export type TokenRejection = 'malformed' | 'expired' | 'invalid';

// Three base64url parts; anything else never reaches the verifier.
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_TOKEN_LENGTH = 4096;
const BEARER = /^Bearer +(\S+) *$/i;

export type BearerToken =
  | { readonly _tag: 'Missing' }
  | { readonly _tag: 'Malformed' }
  | { readonly _tag: 'Present'; readonly token: string };

/** Reads `Authorization: Bearer <token>` (RFC 6750: the scheme is case-insensitive). */
export const bearerTokenOf = (authorization: string | undefined): BearerToken => {
  if (authorization === undefined || authorization === '') return { _tag: 'Missing' };
  const match = BEARER.exec(authorization);
  const token = match?.[1];
  if (token === undefined || token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) {
    return { _tag: 'Malformed' };
  }
  return { _tag: 'Present', token };
};
