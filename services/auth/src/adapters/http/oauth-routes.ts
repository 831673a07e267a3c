import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { OAUTH_REVOKE_PATH, OAUTH_TOKEN_PATH, type OAuthTokenResponse } from '@esign/contracts';
import type { AppContext, AppState } from '@esign/platform';
import { clientCredentialsGrant } from '../../application/client-credentials.js';
import type { Deps } from '../../application/deps.js';
import { admitAnonymous } from '../../application/admit-anonymous.js';
import {
  authorizationCodeGrant,
  refreshTokenGrant,
  revokeGrantToken,
  type GrantedTokens,
} from '../../application/oauth-grants.js';
import { authenticateClient } from '../../application/client-authentication.js';
import type { GrantError } from '../../domain/errors.js';
import { clientAddress } from './client-address.js';
import { clientOf, fail, OAuthFailure, paramsOf } from './oauth-params.js';
import { run } from './request.js';

const failureOf = (error: GrantError): OAuthFailure => {
  switch (error._tag) {
    case 'InvalidClient':
      return fail('invalid_client', 'unknown client or wrong client secret', 401);
    case 'UnauthorizedClient':
      return fail('unauthorized_client', error.reason);
    case 'InvalidGrant':
      return fail('invalid_grant', error.reason);
    case 'InvalidRequest':
      return fail('invalid_request', error.reason);
  }
};

const orFail = async <A>(task: TE.TaskEither<GrantError, A>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw failureOf(result.left);
  return result.right;
};

const required = (params: Map<string, string>, name: string): string => {
  const value = params.get(name);
  if (value === undefined || value === '') throw fail('invalid_request', `${name} is required`);
  return value;
};

const noScope = (params: Map<string, string>): void => {
  if ((params.get('scope') ?? '').trim() !== '')
    throw fail('invalid_scope', 'this server defines no scopes: a token reaches the sites of its user');
};

const granted = (tokens: GrantedTokens): OAuthTokenResponse => ({
  access_token: tokens.accessToken,
  token_type: 'Bearer',
  expires_in: tokens.expiresIn,
  refresh_token: tokens.refreshToken,
});

/** One grant's answer (RFC 6749 §5.1). */
const tokenFor = async (
  ctx: AppContext,
  deps: Deps,
  params: Map<string, string>,
): Promise<OAuthTokenResponse> => {
  const grantType = params.get('grant_type');
  if (grantType === undefined) throw fail('invalid_request', 'grant_type is required');
  if (grantType === 'client_credentials') {
    const client = clientOf(ctx, params);
    noScope(params);
    const issued = await orFail(
      clientCredentialsGrant(deps)({ clientId: client.id, clientSecret: client.secret ?? '' }),
    );
    return {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: Math.round((issued.record.expiresAt.getTime() - issued.record.createdAt.getTime()) / 1000),
    };
  }
  if (grantType === 'authorization_code') {
    const client = await orFail(authenticateClient(deps)(clientOf(ctx, params, true)));
    const code = required(params, 'code');
    return granted(
      await orFail(
        authorizationCodeGrant(deps)({
          client,
          code,
          redirectUri: params.get('redirect_uri'),
          codeVerifier: params.get('code_verifier'),
        }),
      ),
    );
  }
  if (grantType === 'refresh_token') {
    const client = await orFail(authenticateClient(deps)(clientOf(ctx, params, true)));
    const refreshToken = required(params, 'refresh_token');
    noScope(params);
    return granted(await orFail(refreshTokenGrant(deps)({ client, refreshToken })));
  }
  throw fail(
    'unsupported_grant_type',
    'the grants supported are authorization_code, refresh_token and client_credentials',
  );
};

/**
 * `POST /oauth/token` (client credentials, authorization code with PKCE, rotating refresh
 * tokens) and `POST /oauth/revoke` (RFC 7009), speaking RFC 6749 §5.1/§5.2 rather than
 * problems.
 */
export const oauthRoutes = (
  router: Router<AppState>,
  deps: Deps,
  options: { readonly trustedProxyHops: number },
): void => {
  const oauthEndpoint =
    (answer: (ctx: AppContext, params: Map<string, string>) => Promise<unknown>) =>
    async (ctx: AppContext) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Pragma', 'no-cache');
      // Over the limits: 429 problem+json with Retry-After (RFC 6749 defines no error for it).
      await run(
        admitAnonymous(deps)({ door: 'oauth_token', client: clientAddress(ctx, options.trustedProxyHops) }),
      );
      try {
        ctx.body = await answer(ctx, await paramsOf(ctx));
      } catch (error) {
        if (!(error instanceof OAuthFailure)) throw error;
        ctx.status = error.status;
        if (error.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="esign", charset="UTF-8"');
        ctx.type = 'application/json';
        ctx.body = error.body;
      }
    };

  router.post(
    OAUTH_TOKEN_PATH,
    oauthEndpoint((ctx, params) => tokenFor(ctx, deps, params)),
  );

  router.post(
    OAUTH_REVOKE_PATH,
    oauthEndpoint(async (ctx, params) => {
      const client = await orFail(authenticateClient(deps)(clientOf(ctx, params, true)));
      await orFail(revokeGrantToken(deps)({ client, token: required(params, 'token') }));
      // §2.2: 200 whether or not the token was known; the body is empty.
      ctx.status = 200;
      return '';
    }),
  );
};
