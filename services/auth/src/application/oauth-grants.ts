import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
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
import type { Deps } from './deps.js';
import { ensureSigningKey } from './ensure-signing-key.js';

export interface GrantedTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
}

const invalidGrant = (reason: string): E.Either<GrantError, never> =>
  E.left({ _tag: 'InvalidGrant', reason });

/** The PKCE check (RFC 7636 §4.6): S256 of the verifier equals the challenge, compared in constant time. */
const verifierMatches = (deps: Deps, verifier: string, challenge: string): boolean =>
  deps.secrets.same(deps.secrets.pkceChallenge(verifier), new TextEncoder().encode(challenge));

/**
 * Signs an access token for the grant's user, app and Sites, and makes the next refresh
 * token; `redeem` stores both while it consumes the code or refresh token, in one
 * transaction. A lost race (a replay) stores nothing: the signed token, never recorded,
 * is refused by introspection.
 */
const exchange = async (
  deps: Deps,
  grant: OAuthGrant,
  appName: string,
  kind: 'code' | 'refresh',
  fingerprint: Uint8Array,
): Promise<E.Either<GrantError, GrantedTokens>> => {
  // Nothing is issued for a user who can no longer use the API (introspection would refuse it anyway).
  const user = await deps.accounts.findUser(grant.userId)();
  const account = user && (await deps.accounts.findAccount(user.accountId)());
  if (user === undefined || user.disabledAt !== null || account === undefined || !account.apiAccess)
    return invalidGrant('the user who authorised the app can no longer use the API');
  const key = await ensureSigningKey(deps)();
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
  const accessToken = await deps.signer.sign(key.kid, {
    sub: access.userId,
    jti: access.id,
    client_id: access.appId,
    iat: createdAt.getTime() / 1000,
    exp: access.expiresAt.getTime() / 1000,
  })();
  const refreshToken = deps.secrets.newSecret(REFRESH_TOKEN_PREFIX);
  const redeemed = await deps.oauth.redeem(kind, fingerprint, createdAt, {
    grantId: grant.id,
    access,
    refresh: {
      fingerprint: deps.secrets.fingerprint(refreshToken),
      createdAt,
      expiresAt: expiryOf(createdAt, REFRESH_TOKEN_TTL_SECONDS),
    },
  })();
  if (!redeemed) {
    await deps.oauth.revokeGrant(grant.id, createdAt)();
    return invalidGrant(`the ${kind === 'code' ? 'code' : 'refresh token'} was already used`);
  }
  return E.right({ accessToken, refreshToken, expiresIn: OAUTH_ACCESS_TOKEN_TTL_SECONDS });
};

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
  }): TE.TaskEither<GrantError, GrantedTokens> =>
  async () => {
    if (input.redirectUri === undefined)
      return E.left({ _tag: 'InvalidRequest', reason: 'redirect_uri is required' });
    if (input.codeVerifier === undefined)
      return E.left({ _tag: 'InvalidRequest', reason: 'code_verifier is required (PKCE)' });
    if (!isCodeVerifier(input.codeVerifier))
      return E.left({
        _tag: 'InvalidRequest',
        reason: 'code_verifier must be 43 to 128 unreserved characters',
      });
    const fingerprint = deps.secrets.fingerprint(input.code);
    const code = await deps.oauth.findCode(fingerprint)();
    const now = deps.clock.now();
    if (code === undefined || code.grant.appId !== input.client.app.id)
      return invalidGrant('unknown code, or issued to another client');
    if (code.usedAt !== null) {
      await deps.oauth.revokeGrant(code.grant.id, now)();
      return invalidGrant('the code was already used; the tokens it gave are revoked');
    }
    if (code.grant.revokedAt !== null) return invalidGrant('the authorization was revoked');
    if (code.expiresAt.getTime() <= now.getTime()) return invalidGrant('the code has expired');
    if (code.redirectUri !== input.redirectUri)
      return invalidGrant('redirect_uri differs from the one authorised');
    if (!verifierMatches(deps, input.codeVerifier, code.codeChallenge))
      return invalidGrant('code_verifier does not match the code challenge');
    return exchange(deps, code.grant, input.client.app.name, 'code', fingerprint);
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
  }): TE.TaskEither<GrantError, GrantedTokens> =>
  async () => {
    const fingerprint = deps.secrets.fingerprint(input.refreshToken);
    const stored = await deps.oauth.findRefreshToken(fingerprint)();
    const now = deps.clock.now();
    if (stored === undefined || stored.grant.appId !== input.client.app.id)
      return invalidGrant('unknown refresh token, or issued to another client');
    if (stored.usedAt !== null) {
      await deps.oauth.revokeGrant(stored.grant.id, now)();
      return invalidGrant('the refresh token was already used; the authorization is revoked');
    }
    if (stored.grant.revokedAt !== null) return invalidGrant('the authorization was revoked');
    if (stored.expiresAt.getTime() <= now.getTime()) return invalidGrant('the refresh token has expired');
    return exchange(deps, stored.grant, input.client.app.name, 'refresh', fingerprint);
  };

/**
 * RFC 7009: a refresh token revokes its grant (and with it the access tokens it gave); an
 * access token of ours issued to this client is revoked. Unknown or foreign tokens change
 * nothing, and the answer is the same (§2.2).
 */
export const revokeGrantToken =
  (deps: Deps) =>
  (input: { readonly client: ClientRecord; readonly token: string }): TE.TaskEither<GrantError, void> =>
  async () => {
    const now = deps.clock.now();
    if (input.token.startsWith(REFRESH_TOKEN_PREFIX)) {
      const stored = await deps.oauth.findRefreshToken(deps.secrets.fingerprint(input.token))();
      if (stored !== undefined && stored.grant.appId === input.client.app.id)
        await deps.oauth.revokeGrant(stored.grant.id, now)();
      return E.right(undefined);
    }
    const claims = await deps.signer.verify(input.token)();
    if (claims === undefined || claims.clientId !== input.client.app.id) return E.right(undefined);
    const record = await deps.tokens.find(claims.jti)();
    if (record !== undefined && record.appId === input.client.app.id)
      await deps.tokens.revoke(record.id, now)();
    return E.right(undefined);
  };
