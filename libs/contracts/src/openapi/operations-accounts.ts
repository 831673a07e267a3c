import { JWKS_PATH } from '../auth.js';
import {
  AccountSiteList,
  AccountUserList,
  AddSiteMemberBody,
  AccountSiteView,
  UpdateAccountSiteBody,
  AppList,
  AppView,
  ClientSecretView,
  CreateAppBody,
  CreatedTokenView,
  CreateTokenBody,
  CurrentSessionView,
  JwkSet,
  PasswordConfirmationBody,
  SessionAccessTokenView,
  SessionView,
  SiteMemberView,
  SignInBody,
  TokenList,
  TokenView,
} from '../auth-api.js';
import { PAGE_QUERY, type Operation, type SuccessAnswer } from './operation.js';

const APP_ID = { description: 'The Developer App (a UUID).' } as const;
const TOKEN_ID = { description: 'The access token record (a UUID).' } as const;

const session = (operation: Omit<Operation, 'auth' | 'tag'>): Operation => ({
  ...operation,
  auth: 'session',
  tag: operation.path.startsWith('/v1.1/sessions')
    ? 'Sessions'
    : operation.path.startsWith('/v1.1/account')
      ? 'Account'
      : 'Developer apps and tokens',
});

const SITE = { description: 'A Site of the account (an integer id).', integer: true } as const;
const USER_ID = { description: 'A user of the account (a UUID).' } as const;

const deleted = (description: string) => ({ 204: { description } });

/**
 * One resource at `path` (its id in `params`): GET answers it, DELETE answers 204; both
 * `not_found` for an id that is not the caller's.
 */
const getAndDelete = (
  path: string,
  params: NonNullable<Operation['params']>,
  get: { readonly operationId: string; readonly summary: string; readonly answer: SuccessAnswer },
  remove: {
    readonly operationId: string;
    readonly summary: string;
    readonly description: string;
    readonly answer: string;
  },
): Operation[] => [
  session({
    method: 'get',
    path,
    operationId: get.operationId,
    summary: get.summary,
    params,
    responses: { 200: get.answer },
    problems: ['not_found'],
  }),
  session({
    method: 'delete',
    path,
    operationId: remove.operationId,
    summary: remove.summary,
    description: remove.description,
    params,
    responses: deleted(remove.answer),
    problems: ['not_found'],
  }),
];

/** The auth service's public API: sign-in, Developer Apps, access tokens, OAuth, the key set. */
export const ACCOUNT_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1.1/sessions',
    operationId: 'signIn',
    summary: 'Sign in',
    description:
      'A short-lived session credential for the self-service API (`/v1.1/apps…`, `/v1.1/tokens…`).',
    tag: 'Sessions',
    auth: 'public',
    body: { codec: SignInBody },
    responses: { 201: { description: 'The session.', codec: SessionView } },
    problems: [
      'invalid_credentials',
      'api_access_required',
      'user_disabled',
      'too_many_attempts',
      'rate_limited',
      'busy',
    ],
  },
  session({
    method: 'get',
    path: '/v1.1/sessions/current',
    operationId: 'getCurrentSession',
    summary: 'Who is signed in',
    description: 'The user, and the Sites their tokens reach now.',
    responses: { 200: { description: 'The current session.', codec: CurrentSessionView } },
    problems: [],
  }),
  session({
    method: 'post',
    path: '/v1.1/sessions/current/access-token',
    operationId: 'createSessionAccessToken',
    summary: 'An access token for the signed-in session',
    description:
      'Reaches the Sites of the signed-in user and ends with the session (sign-out, expiry); never listed. ' +
      'For clients acting for a person in a browser, such as the web application.',
    responses: { 201: { description: 'The token, shown this once.', codec: SessionAccessTokenView } },
    problems: [],
  }),
  session({
    method: 'get',
    path: '/v1.1/account/sites',
    operationId: 'listAccountSites',
    summary: 'List the account’s Sites with their members',
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of Sites.', codec: AccountSiteList } },
    problems: ['invalid_query'],
  }),
  session({
    method: 'get',
    path: '/v1.1/account/users',
    operationId: 'listAccountUsers',
    summary: 'List the account’s users and the Sites each belongs to',
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of users.', codec: AccountUserList } },
    problems: ['invalid_query'],
  }),
  session({
    method: 'patch',
    path: '/v1.1/account/sites/{account_site_id}',
    operationId: 'updateAccountSite',
    summary: 'Set a Site’s default language for its signers',
    description:
      'Account admins only. `default_locale` (a BCP 47 tag, or null to clear it) is the language of the signing pages, e-mails, SMS and audit page for signers whose entry names no `locale`; Requests created from then on take it (ADR 2320).',
    params: { account_site_id: SITE },
    body: { codec: UpdateAccountSiteBody },
    responses: { 200: { description: 'The Site as it now is.', codec: AccountSiteView } },
    problems: ['not_found', 'account_admin_required'],
  }),
  session({
    method: 'post',
    path: '/v1.1/account/sites/{account_site_id}/members',
    operationId: 'addSiteMember',
    summary: 'Add a user of the account to a Site',
    description: 'Account admins only. 201 when added, 200 when the user already was a member.',
    params: { account_site_id: SITE },
    body: { codec: AddSiteMemberBody },
    responses: {
      200: { description: 'Already a member.', codec: SiteMemberView },
      201: { description: 'Added.', codec: SiteMemberView },
    },
    problems: ['not_found', 'account_admin_required', 'not_account_user'],
  }),
  session({
    method: 'delete',
    path: '/v1.1/account/sites/{account_site_id}/members/{user_id}',
    operationId: 'removeSiteMember',
    summary: 'Remove a user from a Site',
    description:
      'Account admins only. Tokens of that user stop reaching the Site within the revocation bound.',
    params: { account_site_id: SITE, user_id: USER_ID },
    responses: deleted('Removed.'),
    problems: ['not_found', 'account_admin_required'],
  }),
  session({
    method: 'delete',
    path: '/v1.1/sessions/current',
    operationId: 'signOut',
    summary: 'Sign out',
    responses: deleted('Signed out.'),
    problems: [],
  }),
  session({
    method: 'post',
    path: '/v1.1/apps',
    operationId: 'createApp',
    summary: 'Create a Developer App',
    body: { codec: CreateAppBody },
    responses: { 201: { description: 'The app.', codec: AppView, location: true } },
    problems: [],
  }),
  session({
    method: 'get',
    path: '/v1.1/apps',
    operationId: 'listApps',
    summary: 'List your Developer Apps',
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of apps.', codec: AppList } },
    problems: ['invalid_query'],
  }),
  ...getAndDelete(
    '/v1.1/apps/{app_id}',
    { app_id: APP_ID },
    {
      operationId: 'getApp',
      summary: 'Get a Developer App',
      answer: { description: 'The app.', codec: AppView },
    },
    {
      operationId: 'deleteApp',
      summary: 'Delete a Developer App',
      description: 'Its tokens stop working.',
      answer: 'Deleted.',
    },
  ),
  session({
    method: 'post',
    path: '/v1.1/apps/{app_id}/client-secret',
    operationId: 'createClientSecret',
    summary: 'Make the app’s client secret',
    description:
      'For the client-credentials grant; replaces any previous secret; shown this once. Asks for the password again.',
    params: { app_id: APP_ID },
    body: { codec: PasswordConfirmationBody },
    responses: { 201: { description: 'The client id and secret.', codec: ClientSecretView } },
    problems: ['not_found', 'invalid_password', 'too_many_attempts'],
  }),
  session({
    method: 'delete',
    path: '/v1.1/apps/{app_id}/client-secret',
    operationId: 'deleteClientSecret',
    summary: 'Remove the app’s client secret',
    params: { app_id: APP_ID },
    responses: deleted('Removed.'),
    problems: ['not_found'],
  }),
  session({
    method: 'post',
    path: '/v1.1/apps/{app_id}/tokens',
    operationId: 'createAccessToken',
    summary: 'Create an access token',
    description:
      'Asks for the password again; the token is shown this once. `site_ids` limits it to some of your Sites (all of them if absent); `test_mode_only` makes it a test-only token (it may create only test-mode Requests); a password change revokes it.',
    params: { app_id: APP_ID },
    body: { codec: CreateTokenBody },
    responses: {
      201: { description: 'The token record and the token.', codec: CreatedTokenView, location: true },
    },
    problems: ['not_found', 'invalid_password', 'too_many_attempts', 'sites_not_reachable'],
  }),
  session({
    method: 'get',
    path: '/v1.1/apps/{app_id}/tokens',
    operationId: 'listAppTokens',
    summary: 'List an app’s tokens',
    description: 'Newest first, never the token itself.',
    params: { app_id: APP_ID },
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of token records.', codec: TokenList } },
    problems: ['not_found', 'invalid_query'],
  }),
  session({
    method: 'get',
    path: '/v1.1/tokens',
    operationId: 'listTokens',
    summary: 'List your tokens',
    query: {
      ...PAGE_QUERY,
      app_id: { description: 'Only the tokens of this app.', schema: { type: 'string', format: 'uuid' } },
    },
    responses: { 200: { description: 'One page of token records.', codec: TokenList } },
    problems: ['invalid_query'],
  }),
  ...getAndDelete(
    '/v1.1/tokens/{token_id}',
    { token_id: TOKEN_ID },
    {
      operationId: 'getToken',
      summary: 'Get a token record',
      answer: { description: 'The token record.', codec: TokenView },
    },
    {
      operationId: 'revokeToken',
      summary: 'Revoke a token',
      description: 'Revoking twice is fine.',
      answer: 'Revoked.',
    },
  ),
  {
    method: 'get',
    path: JWKS_PATH,
    operationId: 'getJwks',
    summary: 'The public keys access tokens are signed with',
    description: 'Ed25519 keys (`alg: EdDSA`); cache for at most a minute.',
    tag: 'OAuth',
    auth: 'public',
    responses: { 200: { description: 'The key set.', codec: JwkSet } },
    problems: [],
  },
];
