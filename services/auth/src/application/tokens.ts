import type { PageOf, PageRequest } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { TokenRecord } from '../domain/model.js';
import type { Deps } from './deps.js';

/** The user's own tokens, newest first, optionally of one app. */
export const listOwnTokens =
  (deps: Deps) =>
  (
    userId: string,
    filter: { readonly appId?: string },
    page: PageRequest,
  ): TE.TaskEither<AuthError, PageOf<TokenRecord>> =>
  async () =>
    E.right(await deps.tokens.list({ ...filter, userId }, page)());

export const findOwnToken =
  (deps: Deps) =>
  (userId: string, tokenId: string): TE.TaskEither<AuthError, TokenRecord> =>
  async () => {
    const token = await deps.tokens.find(tokenId)();
    return token === undefined || token.userId !== userId
      ? E.left(notFound('token', tokenId))
      : E.right(token);
  };

/**
 * Revokes one of the user's tokens. Introspection reads the record on every (uncached)
 * question, so the token stops working as soon as the gateway's cache lapses.
 * Revoking twice is not an error.
 */
export const revokeOwnToken =
  (deps: Deps) =>
  (userId: string, tokenId: string): TE.TaskEither<AuthError, TokenRecord> =>
  async () => {
    const token = await findOwnToken(deps)(userId, tokenId)();
    if (E.isLeft(token)) return token;
    return revokeToken(deps)(tokenId)();
  };

/** Any token: for the operator. */
export const revokeToken =
  (deps: Deps) =>
  (tokenId: string): TE.TaskEither<AuthError, TokenRecord> =>
  async () => {
    const revoked = await deps.tokens.revoke(tokenId, deps.clock.now())();
    return revoked === undefined ? E.left(notFound('token', tokenId)) : E.right(revoked);
  };
