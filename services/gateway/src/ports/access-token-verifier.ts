import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AccessTokenClaims, TokenRejection } from '../domain/access-token.js';

export interface VerifyFailure {
  readonly _tag: 'TokenRejected';
  readonly reason: TokenRejection;
}

/**
 * Checks a compact JWS access token's signature, algorithm, type, issuer, audience and
 * expiry. When the key set cannot be fetched the task rejects with `AuthUnavailable`.
 */
export type AccessTokenVerifier = (token: string) => TE.TaskEither<VerifyFailure, AccessTokenClaims>;
