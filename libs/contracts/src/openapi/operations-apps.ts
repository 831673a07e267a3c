import { JWKS_PATH } from '../auth.js';
import {
  AppList,
  AppView,
  ClientSecretView,
  CreateAppBody,
  CreatedTokenView,
  CreateTokenBody,
  JwkSet,
  PasswordConfirmationBody,
  TokenList,
  TokenView,
} from '../auth-api.js';
import { PAGE_QUERY, type Operation, type SuccessAnswer } from './operation.js';
import { deleted, session } from './operations-accounts.js';

const APP_ID = { description: 'The Developer App (a UUID).' } as const;
const TOKEN_ID = { description: 'The access token record (a UUID).' } as const;

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

/** The auth service's public API for clients: Developer Apps, access tokens, the key set. */
export const APP_OPERATIONS: readonly Operation[] = [
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
