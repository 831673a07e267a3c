import * as t from 'io-ts';
import { AppView, OAuthErrorBody, OAUTH_TOKEN_PATH, OAuthTokenResponse } from '../auth-api.js';
import {
  AuthorizationList,
  ConsentAnswer,
  ConsentDecisionBody,
  OAUTH_AUTHORIZATIONS_PATH,
  OAUTH_CONSENT_PATH,
  OAUTH_REVOKE_PATH,
  RedirectView,
  UpdateAppBody,
} from '../oauth-api.js';
import { PAGE_QUERY, type Operation, type QueryParameter } from './operation.js';

/**
 * The token endpoint's parameters for each grant (RFC 6749 §4.1.3, §4.4, §6). Auth reads
 * them by hand from a form (or JSON) body; this codec only states them for the document.
 */
export const TokenRequest = t.union(
  [
    t.intersection([
      t.type({ grant_type: t.literal('client_credentials') }),
      t.partial({ client_id: t.string, client_secret: t.string, scope: t.string }),
    ]),
    t.intersection([
      t.type({
        grant_type: t.literal('authorization_code'),
        code: t.string,
        redirect_uri: t.string,
        code_verifier: t.string,
      }),
      t.partial({ client_id: t.string, client_secret: t.string }),
    ]),
    t.intersection([
      t.type({ grant_type: t.literal('refresh_token'), refresh_token: t.string }),
      t.partial({ client_id: t.string, client_secret: t.string, scope: t.string }),
    ]),
  ],
  'TokenRequest',
);

/** RFC 7009 §2.1. */
export const RevocationRequest = t.intersection(
  [
    t.type({ token: t.string }),
    t.partial({ token_type_hint: t.string, client_id: t.string, client_secret: t.string }),
  ],
  'RevocationRequest',
);

const text = (description: string, required = false): QueryParameter => ({
  description,
  schema: { type: 'string' },
  ...(required ? { required: true } : {}),
});

const OAUTH_ERRORS = {
  400: { description: 'An RFC 6749 §5.2 error.', codec: OAuthErrorBody },
  401: { description: 'Unknown client or wrong secret (RFC 6749 §5.2).', codec: OAuthErrorBody },
} as const;

/** The authorization-code grant (issue 24, ADR 2400): token, revocation, consent, authorised apps. */
export const OAUTH_OPERATIONS: readonly Operation[] = [
  {
    method: 'patch',
    path: '/v1.1/apps/{app_id}',
    operationId: 'updateApp',
    summary: "Set or remove an app's callback URL",
    description:
      'The address the authorization-code grant sends users back to: an absolute https URL (http only ' +
      'for localhost), matched character for character by `redirect_uri`. `null` removes it.',
    tag: 'Developer apps and tokens',
    auth: 'session',
    params: { app_id: { description: 'The Developer App (a UUID).' } },
    body: { codec: UpdateAppBody },
    responses: { 200: { description: 'The app.', codec: AppView } },
    problems: ['not_found'],
  },
  {
    method: 'post',
    path: OAUTH_TOKEN_PATH,
    operationId: 'clientCredentialsToken',
    summary: 'OAuth 2 token endpoint',
    description:
      'RFC 6749: `client_credentials` (§4.4, the app owner’s token), `authorization_code` (§4.1.3 with ' +
      'PKCE `code_verifier`, RFC 7636) and `refresh_token` (§6; single use, rotated; a reused one ' +
      'revokes its whole chain). An app with a client secret authenticates by HTTP Basic or in the ' +
      'body; an app without one sends `client_id` alone (a public client). A code is single use and ' +
      'lives 60 s; a second use is refused and revokes what the first issued. Errors are RFC 6749 ' +
      '§5.2 bodies, not problems.',
    tag: 'OAuth',
    auth: 'client',
    body: { codec: TokenRequest, contentType: 'application/x-www-form-urlencoded' },
    responses: {
      200: {
        description: 'An access token (and, except for client credentials, a refresh token).',
        codec: OAuthTokenResponse,
      },
    },
    // Over the per-client or global limit of unauthenticated calls (RFC 6749 has no error for it).
    problems: ['rate_limited'],
    otherErrors: OAUTH_ERRORS,
  },
  {
    method: 'post',
    path: OAUTH_REVOKE_PATH,
    operationId: 'revokeOAuthToken',
    summary: 'OAuth 2 token revocation (RFC 7009)',
    description:
      'A refresh token revokes its authorization and every access token it gave; an access token ' +
      'issued to the client is revoked. An unknown token changes nothing; the answer is the same.',
    tag: 'OAuth',
    auth: 'client',
    body: { codec: RevocationRequest, contentType: 'application/x-www-form-urlencoded' },
    responses: { 200: { description: 'Revoked, or nothing to revoke.' } },
    problems: ['rate_limited'],
    otherErrors: OAUTH_ERRORS,
  },
  {
    method: 'get',
    path: OAUTH_CONSENT_PATH,
    operationId: 'checkAuthorizationRequest',
    summary: 'Check an authorization request for the signed-in user',
    description:
      'What the consent page behind `GET /oauth/authorize` asks: the app, its owner’s account and the ' +
      'user’s Sites; or `redirect_to`, an error answered at the app’s verified callback. An unknown ' +
      'client or a `redirect_uri` other than the app’s callback is a 400 problem, never a redirect.',
    tag: 'OAuth',
    auth: 'session',
    query: {
      response_type: text('`code`.', true),
      client_id: text('The app (its id).', true),
      redirect_uri: text('The app’s callback URL, exactly.', true),
      state: text('Opaque; returned to the callback.', true),
      code_challenge: text('PKCE: base64url SHA-256 of the verifier.', true),
      code_challenge_method: text('`S256`.', true),
      scope: text('No scopes are defined; leave it out.'),
    },
    responses: {
      200: { description: 'Consent to ask, or where to send the browser.', codec: ConsentAnswer },
    },
    problems: ['invalid_authorization_request'],
  },
  {
    method: 'post',
    path: OAUTH_CONSENT_PATH,
    operationId: 'decideAuthorizationRequest',
    summary: 'Allow or deny an authorization request',
    description:
      'Allow makes a single-use code (60 s) bound to the app, the callback and the code challenge, ' +
      'for the Sites ticked (each one of the user’s; all of them when absent); Deny answers ' +
      '`error=access_denied`. Either way `redirect_to` is where the browser goes, with the `state`.',
    tag: 'OAuth',
    auth: 'session',
    body: { codec: ConsentDecisionBody },
    responses: { 200: { description: 'Where the browser goes.', codec: RedirectView } },
    problems: ['invalid_authorization_request', 'sites_not_reachable', 'no_sites_to_grant'],
  },
  {
    method: 'get',
    path: OAUTH_AUTHORIZATIONS_PATH,
    operationId: 'listAuthorizations',
    summary: 'The apps the user has authorised',
    description: 'Apps holding a live authorization from the signed-in user, newest first.',
    tag: 'OAuth',
    auth: 'session',
    query: PAGE_QUERY,
    responses: { 200: { description: 'A page of authorised apps.', codec: AuthorizationList } },
    problems: [],
  },
  {
    method: 'delete',
    path: `${OAUTH_AUTHORIZATIONS_PATH}/{client_id}`,
    operationId: 'revokeAuthorization',
    summary: 'Revoke an app the user authorised',
    description:
      'Its refresh tokens stop at once, its access tokens within the gateway’s revocation bound ' +
      '(`INTROSPECTION_CACHE_SECONDS`). Revoking an app that holds nothing is fine.',
    tag: 'OAuth',
    auth: 'session',
    params: { client_id: { description: 'The app (its client id).' } },
    responses: { 204: { description: 'Revoked.' } },
    problems: [],
  },
];
