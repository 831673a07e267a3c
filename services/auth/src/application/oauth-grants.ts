import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { GrantError } from '../domain/errors.js';
import type { TokenRecord } from '../domain/model.js';
import {
  isCodeVerifier,
  OAUTH_ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_TTL_SECONDS,
  type OAuthGrant,
} from '../domain/oauth.js';
import { expiryOf, truncateToSecond } from '../domain/tokens.js';
import type { ClientRecord } from '../ports/app-repository.js';
import type { StoredKey } from '../ports/signing-keys.js';
import type { Deps } from './deps.js';
import { ensureSigningKey } from './ensure-signing-key.js';
import { signRecord } from './issue-token.js';

export interface GrantedTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
}

const invalidGrant = (reason: string): TE.TaskEither<GrantError, never> =>
  TE.left({ _tag: 'InvalidGrant', reason });

/** A replayed code or refresh token: the grant it belongs to is revoked, and the exchange refused. */
const replayed = (deps: Deps, grantId: string, at: Date, reason: string): TE.TaskEither<GrantError, never> =>
  pipe(
    deps.oauth.revokeGrant(grantId, at),
    TE.flatMap(() => invalidGrant(reason)),
  );

/** The PKCE check (RFC 7636 §4.6): S256 of the verifier equals the challenge, compared in constant time. */
const verifierMatches = (deps: Deps, verifier: string, challenge: string): boolean =>
  deps.secrets.same(deps.secrets.pkceChallenge(verifier), new TextEncoder().encode(challenge));

/** Whether the user is enabled and their account has API access. */
const canUseApi = (deps: Deps, userId: string): TE.TaskEither<never, boolean> =>
  pipe(
    deps.accounts.findUser(userId),
    TE.flatMap((user) =>
      O.isSome(user) && user.value.disabledAt === null
        ? pipe(
            deps.accounts.findAccount(user.value.accountId),
            TE.map(O.exists((account) => account.apiAccess)),
          )
        : TE.right(false),
    ),
  );

/**
 * Signs an access token for the grant's user, app and Sites, and makes the next refresh
 * token; `redeem` stores both while it consumes the code or refresh token, in one
 * transaction. A lost race (a replay) stores nothing: the signed token, never recorded,
 * is refused by introspection.
 */
const exchange = (
  deps: Deps,
  grant: OAuthGrant,
  appName: string,
  kind: 'code' | 'refresh',
  fingerprint: Uint8Array,
): TE.TaskEither<GrantError, GrantedTokens> =>
  pipe(
    // Nothing is issued for a user who can no longer use the API (introspection would refuse it anyway).
    canUseApi(deps, grant.userId),
    TE.flatMap((can): TE.TaskEither<GrantError, StoredKey> =>
      can
        ? ensureSigningKey(deps)
        : invalidGrant('the user who authorised the app can no longer use the API'),
    ),
    TE.flatMap((key) => {
      const createdAt = truncateToSecond(deps.clock.now());
      const access: TokenRecord = {
        id: deps.secrets.uuid(),
        appId: grant.appId,
        userId: grant.userId,
        kid: key.kid,
        name: appName,
        origin: 'authorization_code',
        createdAt,
        expiresAt: expiryOf(createdAt, OAUTH_ACCESS_TOKEN_TTL_SECONDS),
        lastUsedAt: null,
        revokedAt: null,
        siteIds: grant.siteIds,
        // An authorised app acts for the user's real Requests: a test-only grant is not offered (ADR 2400).
        testModeOnly: false,
      };
      return pipe(
        signRecord(deps, access),
        TE.flatMap((accessToken) => {
          const refreshToken = deps.secrets.newSecret(REFRESH_TOKEN_PREFIX);
          return pipe(
            deps.oauth.redeem(kind, fingerprint, createdAt, {
              grantId: grant.id,
              access,
              refresh: {
                fingerprint: deps.secrets.fingerprint(refreshToken),
                createdAt,
                expiresAt: expiryOf(createdAt, REFRESH_TOKEN_TTL_SECONDS),
              },
            }),
            TE.flatMap((redeemed) =>
              redeemed
                ? TE.right({ accessToken, refreshToken, expiresIn: OAUTH_ACCESS_TOKEN_TTL_SECONDS })
                : replayed(
                    deps,
                    grant.id,
                    createdAt,
                    `the ${kind === 'code' ? 'code' : 'refresh token'} was already used`,
                  ),
            ),
          );
        }),
      );
    }),
  );

/**
 * RFC 6749 §4.1.3 with RFC 7636 §4.5: a code is exchanged once, by the client it was
 * issued to, with the same redirect_uri, within 60 s, with the verifier of its challenge.
 * A second use is a sign the code leaked: it is refused and what the first use issued is
 * revoked (§10.5).
 */
export const authorizationCodeGrant =
  (deps: Deps) =>
  (input: {
    readonly client: ClientRecord;
    readonly code: string;
    readonly redirectUri: string | undefined;
    readonly codeVerifier: string | undefined;
  }): TE.TaskEither<GrantError, GrantedTokens> => {
    const { redirectUri, codeVerifier } = input;
    if (redirectUri === undefined)
      return TE.left({ _tag: 'InvalidRequest', reason: 'redirect_uri is required' });
    if (codeVerifier === undefined)
      return TE.left({ _tag: 'InvalidRequest', reason: 'code_verifier is required (PKCE)' });
    if (!isCodeVerifier(codeVerifier))
      return TE.left({
        _tag: 'InvalidRequest',
        reason: 'code_verifier must be 43 to 128 unreserved characters',
      });
    const fingerprint = deps.secrets.fingerprint(input.code);
    return pipe(
      deps.oauth.findCode(fingerprint),
      TE.flatMap((found) => {
        const now = deps.clock.now();
        if (O.isNone(found) || found.value.grant.appId !== input.client.app.id)
          return invalidGrant('unknown code, or issued to another client');
        const code = found.value;
        if (code.usedAt !== null)
          return replayed(
            deps,
            code.grant.id,
            now,
            'the code was already used; the tokens it gave are revoked',
          );
        if (code.grant.revokedAt !== null) return invalidGrant('the authorization was revoked');
        if (code.expiresAt.getTime() <= now.getTime()) return invalidGrant('the code has expired');
        if (code.redirectUri !== redirectUri)
          return invalidGrant('redirect_uri differs from the one authorised');
        if (!verifierMatches(deps, codeVerifier, code.codeChallenge))
          return invalidGrant('code_verifier does not match the code challenge');
        return exchange(deps, code.grant, input.client.app.name, 'code', fingerprint);
      }),
    );
  };

/**
 * RFC 6749 §6 with rotation (OAuth 2.0 Security BCP §4.14.2): each refresh token is used
 * once and answered with a new one; one presented again revokes the whole grant.
 */
export const refreshTokenGrant =
  (deps: Deps) =>
  (input: {
    readonly client: ClientRecord;
    readonly refreshToken: string;
  }): TE.TaskEither<GrantError, GrantedTokens> => {
    const fingerprint = deps.secrets.fingerprint(input.refreshToken);
    return pipe(
      deps.oauth.findRefreshToken(fingerprint),
      TE.flatMap((found) => {
        const now = deps.clock.now();
        if (O.isNone(found) || found.value.grant.appId !== input.client.app.id)
          return invalidGrant('unknown refresh token, or issued to another client');
        const stored = found.value;
        if (stored.usedAt !== null)
          return replayed(
            deps,
            stored.grant.id,
            now,
            'the refresh token was already used; the authorization is revoked',
          );
        if (stored.grant.revokedAt !== null) return invalidGrant('the authorization was revoked');
        if (stored.expiresAt.getTime() <= now.getTime()) return invalidGrant('the refresh token has expired');
        return exchange(deps, stored.grant, input.client.app.name, 'refresh', fingerprint);
      }),
    );
  };

/**
 * RFC 7009: a refresh token revokes its grant (and with it the access tokens it gave); an
 * access token of ours issued to this client is revoked. Unknown or foreign tokens change
 * nothing, and the answer is the same (§2.2).
 */
export const revokeGrantToken =
  (deps: Deps) =>
  (input: { readonly client: ClientRecord; readonly token: string }): TE.TaskEither<GrantError, void> => {
    const now = deps.clock.now();
    // Only what was issued to this client counts.
    const ofClient = <A extends { readonly appId: string }>(found: O.Option<A>) =>
      O.filter((a: A) => a.appId === input.client.app.id)(found);
    if (input.token.startsWith(REFRESH_TOKEN_PREFIX))
      return pipe(
        deps.oauth.findRefreshToken(deps.secrets.fingerprint(input.token)),
        TE.map(O.map((stored) => stored.grant)),
        TE.map(ofClient),
        TE.flatMap(
          O.match(
            (): TE.TaskEither<never, void> => TE.right(undefined),
            (grant) => deps.oauth.revokeGrant(grant.id, now),
          ),
        ),
      );
    return pipe(
      deps.signer.verify(input.token),
      TE.map(O.filter((claims) => claims.clientId === input.client.app.id)),
      TE.flatMap((claims) => (O.isSome(claims) ? deps.tokens.find(claims.value.jti) : TE.right(O.none))),
      TE.map(ofClient),
      TE.flatMap(
        O.match(
          (): TE.TaskEither<never, void> => TE.right(undefined),
          (record) =>
            pipe(
              deps.tokens.revoke(record.id, now),
              TE.map(() => undefined),
            ),
        ),
      ),
    );
  };
