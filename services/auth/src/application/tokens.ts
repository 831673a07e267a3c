import { TOKEN_REVOKED, type PageOf, type PageRequest, type TokenRevoked } from '@esign/contracts';
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
      TE.flatMap(() => deps.tokens.revoke(tokenId, deps.clock.now())),
      required(() => notFound('token', tokenId)),
    );

/**
 * The e-mail that tells a token's user an operator revoked it (ADR 3120), unless the user
 * is disabled (nothing of theirs works anyway) or the app is gone (its tokens went with it).
 */
const toldUser = (deps: Deps, token: TokenRecord): TE.TaskEither<never, TokenRevoked[]> =>
  pipe(
    TE.Do,
    TE.apS('user', deps.accounts.findUser(token.userId)),
    TE.apS('app', deps.apps.find(token.appId)),
    TE.map(({ user, app }) =>
      O.isSome(user) && user.value.disabledAt === null && O.isSome(app)
        ? [
            {
              id: deps.secrets.uuid(),
              type: TOKEN_REVOKED,
              occurred_at: deps.clock.now().toISOString(),
              aggregate_id: token.id,
              data: {
                email: user.value.email,
                app_name: app.value.name,
                token_name: token.name,
                origin: token.origin,
              },
            },
          ]
        : [],
    ),
  );

/** Any token: for the operator (`revoke-token`); its user is told when it is revoked now (ADR 3120). */
export const revokeToken =
  (deps: Deps) =>
  (tokenId: string): TE.TaskEither<AuthError, TokenRecord> =>
    pipe(
      deps.tokens.find(tokenId),
      required(() => notFound('token', tokenId)),
      TE.flatMap((token) => (token.revokedAt !== null ? TE.right([]) : toldUser(deps, token))),
      TE.flatMap((notices) => deps.tokens.revoke(tokenId, deps.clock.now(), notices)),
      required(() => notFound('token', tokenId)),
    );
