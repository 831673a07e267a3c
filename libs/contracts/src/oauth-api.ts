import * as t from 'io-ts';
import { Page } from './paging.js';
import { nullable, strict } from './primitives.js';
import { TokenSiteIds } from './auth-api.js';
import { CallbackUrl } from './callback-url.js';

/**
 * The service's own OAuth 2.0 authorization experience (issue 24): the authorization-code
 * grant with PKCE for apps that act for other users (RFC 6749 §4.1, RFC 7636, RFC 7009,
 * RFC 8414). Decisions in ADR 2400.
 */
export const OAUTH_AUTHORIZE_PATH = '/oauth/authorize';
export const OAUTH_REVOKE_PATH = '/oauth/revoke';
export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** Session-authenticated: what the consent page asks auth (see ConsentView). */
export const OAUTH_CONSENT_PATH = '/v1.1/oauth/consent';
/** Session-authenticated: the apps the user has authorised; `/:client_id` revokes one. */
export const OAUTH_AUTHORIZATIONS_PATH = '/v1.1/oauth/authorizations';

/** How long an authorization code may be exchanged (RFC 6749 §4.1.2 recommends ≤ 10 min). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

/** `PATCH /v1.1/apps/:id`: set (or, with null, remove) the app's callback URL. */
export const UpdateAppBody = strict({ callback_url: nullable(CallbackUrl) }, {}, 'UpdateAppBody');
export type UpdateAppBody = t.TypeOf<typeof UpdateAppBody>;

/**
 * The parameters of an authorization request as the client sent them (RFC 6749 §4.1.1,
 * RFC 7636 §4.3); validated by auth, which decides what may go back to the callback.
 */
export const AuthorizationRequestParams = t.partial({
  response_type: t.string,
  client_id: t.string,
  redirect_uri: t.string,
  state: t.string,
  scope: t.string,
  code_challenge: t.string,
  code_challenge_method: t.string,
});
export type AuthorizationRequestParams = t.TypeOf<typeof AuthorizationRequestParams>;

export const OAUTH_REQUEST_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
] as const;

/** What the consent page shows: the app, its owner's account and the Sites it may reach. */
export const ConsentView = t.type({
  client_id: t.string,
  app_name: t.string,
  owner_account_name: t.string,
  redirect_uri: t.string,
  sites: t.array(t.type({ id: t.number, name: t.string })),
});
export type ConsentView = t.TypeOf<typeof ConsentView>;

/**
 * The answer when the request is well-formed enough to answer at the callback (an error
 * the client must hear, or the outcome of the user's decision).
 */
export const RedirectView = t.type({ redirect_to: t.string });
export type RedirectView = t.TypeOf<typeof RedirectView>;

export const ConsentAnswer = t.union([ConsentView, RedirectView]);
export type ConsentAnswer = t.TypeOf<typeof ConsentAnswer>;

/** `POST /v1.1/oauth/consent`: the request's parameters and the user's decision. */
export const ConsentDecisionBody = strict(
  {
    request: AuthorizationRequestParams,
    decision: t.keyof({ allow: null, deny: null }, 'ConsentDecision'),
  },
  { site_ids: TokenSiteIds },
  'ConsentDecisionBody',
);
export type ConsentDecisionBody = t.TypeOf<typeof ConsentDecisionBody>;

/** One app the user has authorised, with the Sites granted and when. */
export const AuthorizationView = t.type({
  client_id: t.string,
  app_name: t.string,
  owner_account_name: t.string,
  site_ids: t.array(t.number),
  authorized_at: t.string,
});
export type AuthorizationView = t.TypeOf<typeof AuthorizationView>;
export const AuthorizationList = Page(AuthorizationView);
export type AuthorizationList = t.TypeOf<typeof AuthorizationList>;

/** RFC 8414 §2: the authorization server's metadata. */
export const AuthorizationServerMetadata = t.type({
  issuer: t.string,
  authorization_endpoint: t.string,
  token_endpoint: t.string,
  revocation_endpoint: t.string,
  jwks_uri: t.string,
  response_types_supported: t.array(t.string),
  response_modes_supported: t.array(t.string),
  grant_types_supported: t.array(t.string),
  token_endpoint_auth_methods_supported: t.array(t.string),
  revocation_endpoint_auth_methods_supported: t.array(t.string),
  code_challenge_methods_supported: t.array(t.string),
  service_documentation: t.string,
});
export type AuthorizationServerMetadata = t.TypeOf<typeof AuthorizationServerMetadata>;

/** The metadata document for an issuer (the public base URL, RFC 8414 §2 and §3). */
export const authorizationServerMetadata = (publicBaseUrl: string): AuthorizationServerMetadata => {
  const issuer = publicBaseUrl.replace(/\/+$/, '');
  const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_AUTHORIZE_PATH}`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}${OAUTH_REVOKE_PATH}`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    code_challenge_methods_supported: ['S256'],
    service_documentation: `${issuer}/docs`,
  };
};

/** The PKCE verifier's alphabet and length (RFC 7636 §4.1); the challenge is its S256 (43 chars). */
export const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
