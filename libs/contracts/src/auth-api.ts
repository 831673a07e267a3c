import * as t from 'io-ts';
import { Page } from './paging.js';
import { JWKS_PATH } from './auth.js';
import { CallbackUrl } from './callback-url.js';
import { boundedString, Email, nonEmptyArray, nullable, PositiveInt, refine, strict } from './primitives.js';

/** RFC 6749 §4.4 client-credentials grant; answers RFC 6749 §5.1/§5.2 bodies, not problems. */
export const OAUTH_TOKEN_PATH = '/oauth/token';

/**
 * What the gateway forwards to auth without a bearer check, because auth authenticates
 * these itself (a session credential, client credentials, or nothing for the public keys).
 */
export const AUTH_PUBLIC_PATH_PREFIXES = [
  '/v1.1/sessions',
  '/v1.1/account',
  '/v1.1/apps',
  '/v1.1/tokens',
  '/v1.1/oauth',
  OAUTH_TOKEN_PATH,
  '/oauth/revoke',
  JWKS_PATH,
] as const;

/** The longest lifetime a person may give an access token they create. */
export const ACCESS_TOKEN_MAX_TTL_DAYS = 365;

/** A password as typed at sign-in or re-entry; the policy for new passwords is not revealed here. */
export const PasswordInput = boundedString(1, 1024, 'Password');

// Names are shown in lists and logs: no control characters, not blank.
const CONTROL = /\p{Cc}/u;
export const DisplayName = refine(
  boundedString(1, 100),
  (s): s is string => s.trim() !== '' && !CONTROL.test(s),
  'must not be blank or contain control characters',
  'DisplayName',
);

/** `POST /v1.1/sessions`: sign in to the self-service API. */
export const SignInBody = strict({ email: Email, password: PasswordInput }, {}, 'SignInBody');
export type SignInBody = t.TypeOf<typeof SignInBody>;

export const UserView = t.type({ id: t.string, email: t.string, account_id: t.string });
export type UserView = t.TypeOf<typeof UserView>;

/** The short-lived session credential: `Authorization: Bearer <session_token>` on `/v1.1/apps…` and `/v1.1/tokens…`. */
export const SessionView = t.type({
  session_token: t.string,
  token_type: t.literal('Bearer'),
  expires_at: t.string,
  user: UserView,
});
export type SessionView = t.TypeOf<typeof SessionView>;

/** `GET /v1.1/sessions/current`: who is signed in and which Sites their tokens reach now. */
export const CurrentSessionView = t.type({
  user: UserView,
  sites: t.array(t.type({ id: t.number, name: t.string })),
  expires_at: t.string,
  /** Whether the user administers their account (manages who is on which Site). */
  account_admin: t.boolean,
});
export type CurrentSessionView = t.TypeOf<typeof CurrentSessionView>;

/**
 * `POST /v1.1/sessions/current/access-token`: an access token for the signed-in session
 * itself, for a client that acts for a person (the web application). It reaches what the
 * user's tokens reach, ends with the session (sign-out, expiry) and is never listed.
 */
export const SessionAccessTokenView = t.type({
  access_token: t.string,
  token_type: t.literal('Bearer'),
  expires_in: t.number,
  expires_at: t.string,
});
export type SessionAccessTokenView = t.TypeOf<typeof SessionAccessTokenView>;

/**
 * `POST /v1.1/apps`: a Developer App needs only a name; a callback URL only for the
 * authorization-code grant (issue 24).
 */
export const CreateAppBody = strict({ name: DisplayName }, { callback_url: CallbackUrl }, 'CreateAppBody');
export type CreateAppBody = t.TypeOf<typeof CreateAppBody>;

export const AppView = t.type({
  id: t.string,
  /** The OAuth client id for the client-credentials grant; the same as `id`. */
  client_id: t.string,
  name: t.string,
  has_client_secret: t.boolean,
  client_secret_created_at: nullable(t.string),
  created_at: t.string,
  /** Set while an operator has suspended the app: its tokens do not work. */
  disabled_at: nullable(t.string),
  /** Where the authorization-code grant may send users back (exact match); null: none. */
  callback_url: nullable(t.string),
});
export type AppView = t.TypeOf<typeof AppView>;

export const AppList = Page(AppView);
export type AppList = t.TypeOf<typeof AppList>;

/** Anything that mints credentials asks for the account password again. */
export const PasswordConfirmationBody = strict({ password: PasswordInput }, {}, 'PasswordConfirmationBody');
export type PasswordConfirmationBody = t.TypeOf<typeof PasswordConfirmationBody>;

/** `POST /v1.1/apps/:id/client-secret`: shown once; replaces any previous secret. */
export const ClientSecretView = t.type({
  client_id: t.string,
  client_secret: t.string,
  created_at: t.string,
});
export type ClientSecretView = t.TypeOf<typeof ClientSecretView>;

export const TokenLifetimeDays = refine(
  t.number,
  (n): n is number => Number.isInteger(n) && n >= 1 && n <= ACCESS_TOKEN_MAX_TTL_DAYS,
  `must be an integer from 1 to ${ACCESS_TOKEN_MAX_TTL_DAYS}`,
  'TokenLifetimeDays',
);

/** `POST /v1.1/apps/:id/tokens`: re-enter the password; the token is shown once. */
/**
 * The Sites a token is limited to (issue #18, L10): a subset of its user's Sites, no
 * repeats. Absent means every Site the user belongs to at use.
 */
export const TokenSiteIds = refine(
  nonEmptyArray(PositiveInt, 100, 'TokenSiteIdList'),
  (ids): ids is number[] => new Set(ids).size === ids.length,
  () => 'must not name a Site twice',
  'TokenSiteIds',
);

export const CreateTokenBody = strict(
  { password: PasswordInput },
  {
    name: DisplayName,
    expires_in_days: TokenLifetimeDays,
    site_ids: TokenSiteIds,
    /** The token may create only test-mode Requests (issue #22). */
    test_mode_only: t.boolean,
  },
  'CreateTokenBody',
);
export type CreateTokenBody = t.TypeOf<typeof CreateTokenBody>;

export const TokenState = t.keyof({ active: null, expired: null, revoked: null }, 'TokenState');
export type TokenState = t.TypeOf<typeof TokenState>;

/**
 * How a token came to be: a person in the self-service API, an operator's CLI, a machine
 * client, or an app the user authorised (authorization-code grant).
 */
export const TokenOrigin = t.keyof(
  { self_service: null, admin: null, client_credentials: null, authorization_code: null },
  'TokenOrigin',
);
export type TokenOrigin = t.TypeOf<typeof TokenOrigin>;

/** A token record as lists show it: never the token itself. */
export const TokenView = t.type({
  id: t.string,
  app_id: t.string,
  name: nullable(t.string),
  origin: TokenOrigin,
  state: TokenState,
  created_at: t.string,
  expires_at: t.string,
  last_used_at: nullable(t.string),
  revoked_at: nullable(t.string),
  /** The Sites the token is limited to; null: every Site its user belongs to. */
  site_ids: nullable(t.array(t.number)),
  /** True: the token may create only test-mode Requests (issue #22). */
  test_mode_only: t.boolean,
});
export type TokenView = t.TypeOf<typeof TokenView>;

export const TokenList = Page(TokenView);
export type TokenList = t.TypeOf<typeof TokenList>;

/** The answer to creating a token: the record plus the JWT, shown this once. */
export const CreatedTokenView = t.intersection([
  TokenView,
  t.type({ access_token: t.string, token_type: t.literal('Bearer'), expires_in: t.number }),
]);
export type CreatedTokenView = t.TypeOf<typeof CreatedTokenView>;

/** Body of `POST /internal/introspect` (the gateway's question). */
export const IntrospectionRequest = strict({ token_id: boundedString(1, 200) }, {}, 'IntrospectionRequest');
export type IntrospectionRequest = t.TypeOf<typeof IntrospectionRequest>;

/** The claims of an access token (RFC 9068 profile; `client_id` names the Developer App). */
export const AccessTokenClaims = t.type({
  iss: t.string,
  aud: t.union([t.string, t.array(t.string)]),
  sub: t.string,
  jti: t.string,
  client_id: t.string,
  iat: t.number,
  exp: t.number,
});
export type AccessTokenClaims = t.TypeOf<typeof AccessTokenClaims>;

/** RFC 6749 §5.1. */
export const OAuthTokenResponse = t.intersection([
  t.type({
    access_token: t.string,
    token_type: t.literal('Bearer'),
    expires_in: t.number,
  }),
  /** Authorization-code and refresh grants only: single use, rotated on every refresh. */
  t.partial({ refresh_token: t.string }),
]);
export type OAuthTokenResponse = t.TypeOf<typeof OAuthTokenResponse>;

/** RFC 6749 §5.2 error codes. */
export const OAuthErrorCode = t.keyof(
  {
    invalid_request: null,
    invalid_client: null,
    invalid_grant: null,
    unauthorized_client: null,
    unsupported_grant_type: null,
    invalid_scope: null,
  },
  'OAuthErrorCode',
);
export type OAuthErrorCode = t.TypeOf<typeof OAuthErrorCode>;

export const OAuthErrorBody = t.intersection([
  t.type({ error: OAuthErrorCode }),
  t.partial({ error_description: t.string }),
]);
export type OAuthErrorBody = t.TypeOf<typeof OAuthErrorBody>;

/** One public key of `GET /.well-known/jwks.json`. */
export const PublicJwk = t.type({
  kty: t.literal('OKP'),
  crv: t.literal('Ed25519'),
  x: t.string,
  kid: t.string,
  alg: t.literal('EdDSA'),
  use: t.literal('sig'),
});
export type PublicJwk = t.TypeOf<typeof PublicJwk>;

export const JwkSet = t.type({ keys: t.array(PublicJwk) });
export type JwkSet = t.TypeOf<typeof JwkSet>;
