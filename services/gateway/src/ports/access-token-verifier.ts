import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AccessTokenClaims, TokenRejection } from '../domain/access-token.js';

export type VerifyFailure =
  | { readonly _tag: 'TokenRejected'; readonly reason: TokenRejection }
  /** The key set could not be fetched: not the caller's fault, and never a pass. */
  | { readonly _tag: 'KeysUnavailable' };

/** Checks a compact JWS access token's signature, algorithm, type, issuer, audience and expiry. */
export type AccessTokenVerifier = (token: string) => TE.TaskEither<VerifyFailure, AccessTokenClaims>;
