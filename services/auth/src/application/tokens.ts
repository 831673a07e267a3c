import type { PageOf, PageRequest } from '@esign/contracts';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { TokenRecord } from '../domain/model.js';
import type { Deps } from './deps.js';
import { required } from './required.js';

/** The user's own tokens, newest first, optionally of one app. */
export const listOwnTokens =
  (deps: Deps) =>
  (
    userId: string,
    filter: { readonly appId?: string },
    page: PageRequest,
  ): TE.TaskEither<AuthError, PageOf<TokenRecord>> =>
    deps.tokens.list({ ...filter, userId }, page);

export const findOwnToken =
  (deps: Deps) =>
  (userId: string, tokenId: string): TE.TaskEither<AuthError, TokenRecord> =>
    pipe(
      deps.tokens.find(tokenId),
      TE.map(O.filter((token) => token.userId === userId)),
      required(() => notFound('token', tokenId)),
    );

/**
 * Revokes one of the user's tokens. Introspection reads the record on every (uncached)
 * question, so the token stops working as soon as the gateway's cache lapses.
 * Revoking twice is not an error.
 */
export const revokeOwnToken =
  (deps: Deps) =>
  (userId: string, tokenId: string): TE.TaskEither<AuthError, TokenRecord> =>
    pipe(
      findOwnToken(deps)(userId, tokenId),
      TE.flatMap(() => revokeToken(deps)(tokenId)),
    );

/** Any token: for the operator. */
export const revokeToken =
  (deps: Deps) =>
  (tokenId: string): TE.TaskEither<AuthError, TokenRecord> =>
    pipe(
      deps.tokens.revoke(tokenId, deps.clock.now()),
      required(() => notFound('token', tokenId)),
    );
