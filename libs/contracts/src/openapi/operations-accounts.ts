import { CurrentSessionView, SessionAccessTokenView, SessionView, SignInBody } from '../auth-api.js';
import {
  ChangePasswordBody,
  PasswordChangedView,
  PasswordResetConfirmBody,
  PasswordResetRequestBody,
  PasswordResetRequestedView,
} from '../password-api.js';
import {
  AccountSiteList,
  AccountSiteView,
  AccountUserList,
  AccountUserView,
  AccountView,
  AddSiteMemberBody,
  CreateAccountSiteBody,
  MAX_SITES_PER_ACCOUNT,
  SiteMemberView,
  UpdateAccountBody,
  UpdateAccountSiteBody,
  UpdateAccountUserBody,
} from '../account-api.js';
import { PAGE_QUERY, type Operation } from './operation.js';

/** An operation of a signed-in user, tagged by its path (the apps' and tokens' too). */
export const session = (operation: Omit<Operation, 'auth' | 'tag'>): Operation => ({
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

/** A 204 answer, described. */
export const deleted = (description: string) => ({ 204: { description } });

/** The auth service's public API for people: sign-in, the session, the account's Sites and users. */
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
    method: 'post',
    path: '/v1.1/sessions/current/password',
    operationId: 'changePassword',
    summary: 'Change the signed-in user’s password',
    description:
      'Takes the current password and a new one: at least 12 characters, at most 1,024, not the e-mail address, ' +
      'not the current password (compared after Unicode NFKC normalisation). A wrong current password counts ' +
      'against the same limit as signing in. On success, in one transaction: every session of the user ends, ' +
      'this one included (sign in again with the new password); every access token is revoked, ' +
      'apps authorised through OAuth lose their refresh tokens, and the client secrets of the user’s apps are removed, ' +
      'so nothing made with the old password keeps working. Integrations need new tokens afterwards (ADR 2980).',
    body: { codec: ChangePasswordBody },
    responses: { 200: { description: 'What the change ended.', codec: PasswordChangedView } },
    problems: ['invalid_password', 'weak_password', 'too_many_attempts', 'busy'],
  }),
  {
    method: 'post',
    path: '/v1.1/password-resets',
    operationId: 'requestPasswordReset',
    summary: 'E-mail a link to choose a new password',
    description:
      'For a forgotten password. If a user who can sign in has this address, they are e-mailed a link to the ' +
      'web application’s page for a new password; it works once, for 30 minutes, and only the newest link a ' +
      'user was sent works. At most 3 links are sent to one user in any hour. The answer is the same whether ' +
      'or not a user has the address (ADR 3000).',
    tag: 'Sessions',
    auth: 'public',
    body: { codec: PasswordResetRequestBody },
    responses: {
      202: {
        description: 'A link is on its way, if a user has the address.',
        codec: PasswordResetRequestedView,
      },
    },
    problems: ['rate_limited'],
  },
  {
    method: 'post',
    path: '/v1.1/password-resets/confirm',
    operationId: 'confirmPasswordReset',
    summary: 'Choose a new password with an e-mailed link',
    description:
      'The `token` from the link and the new password (the rules of a password change: 12 to 1,024 characters, ' +
      'not the e-mail address). The change ends what a password change ends: every session, access token, ' +
      'authorised app’s refresh token and client secret of the user; the link is used up.',
    tag: 'Sessions',
    auth: 'public',
    body: { codec: PasswordResetConfirmBody },
    responses: { 200: { description: 'What the change ended.', codec: PasswordChangedView } },
    problems: ['invalid_reset_token', 'weak_password', 'rate_limited'],
  },
  session({
    method: 'get',
    path: '/v1.1/account',
    operationId: 'getAccount',
    summary: 'The signed-in user’s account',
    description:
      'Any user of the account: its name, whether it has REST API access, and the addresses of its enabled ' +
      'admins, whom its users ask for what only an admin may do (ADR 3080).',
    responses: { 200: { description: 'The account.', codec: AccountView } },
    problems: [],
  }),
  session({
    method: 'patch',
    path: '/v1.1/account',
    operationId: 'updateAccount',
    summary: 'Rename the account',
    description:
      'Account admins only. The name (1 to 200 characters, not blank, no control characters, trimmed) is what ' +
      'its users’ e-mails and pages show from then on; e-mails already sent keep the old one (ADR 3080).',
    body: { codec: UpdateAccountBody },
    responses: { 200: { description: 'The account as it now is.', codec: AccountView } },
    problems: ['account_admin_required'],
  }),
  session({
    method: 'get',
    path: '/v1.1/account/sites',
    operationId: 'listAccountSites',
    summary: 'List the account’s Sites with their members',
    description:
      'Account admins only: another user of the account is refused (403 `account_admin_required`).',
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of Sites.', codec: AccountSiteList } },
    problems: ['invalid_query', 'account_admin_required'],
  }),
  session({
    method: 'get',
    path: '/v1.1/account/users',
    operationId: 'listAccountUsers',
    summary: 'List the account’s users and the Sites each belongs to',
    description:
      'Account admins only: another user of the account is refused (403 `account_admin_required`).',
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of users.', codec: AccountUserList } },
    problems: ['invalid_query', 'account_admin_required'],
  }),
  session({
    method: 'patch',
    path: '/v1.1/account/users/{user_id}',
    operationId: 'updateAccountUser',
    summary: 'Disable or enable a user of the account, or change whether they are an admin',
    description:
      'Account admins only. `disabled: true` ends the user’s sessions at once and stops their access tokens and ' +
      'client credentials within the revocation bound; `false` restores the tokens still unexpired and ' +
      'unrevoked. An admin cannot disable themselves (ADR 3040). `admin: true` lets the user manage the ' +
      'account’s users, invitations and Sites from their next call; `false` takes that away. The account always ' +
      'keeps an enabled admin: its only one cannot step down (`last_admin`) (ADR 3060). Setting what a user ' +
      'already is changes nothing. Changes to the account’s users are made one at a time, so an admin demoted ' +
      'or disabled a moment ago is refused (`account_admin_required`).',
    params: { user_id: USER_ID },
    body: { codec: UpdateAccountUserBody },
    responses: { 200: { description: 'The user as they now are.', codec: AccountUserView } },
    problems: ['not_found', 'account_admin_required', 'cannot_disable_yourself', 'last_admin'],
  }),
  session({
    method: 'post',
    path: '/v1.1/account/sites',
    operationId: 'createAccountSite',
    summary: 'Create a Site of the account',
    description:
      'Account admins only. A new Site (a separate environment such as development, or a team) with a name ' +
      'unique within the account (`site_name_taken` otherwise); the admin who makes it is its first member, ' +
      `so their tokens reach it. At most ${MAX_SITES_PER_ACCOUNT} Sites an account (\`too_many_sites\`) (ADR 3050).`,
    body: { codec: CreateAccountSiteBody },
    responses: { 201: { description: 'The Site, with its members.', codec: AccountSiteView } },
    problems: ['account_admin_required', 'site_name_taken', 'too_many_sites'],
  }),
  session({
    method: 'patch',
    path: '/v1.1/account/sites/{account_site_id}',
    operationId: 'updateAccountSite',
    summary: 'Rename a Site, or set its default language for its signers',
    description:
      'Account admins only; name at least one field. `name` renames the Site (unique within the account: ' +
      '`site_name_taken` otherwise) (ADR 3070). `default_locale` (a BCP 47 tag, or null to clear it) is the ' +
      'language of the signing pages, e-mails, SMS and audit page for signers whose entry names no `locale` ' +
      '(ADR 2320). Requests created from then on take both (tokens see the new name within the revocation ' +
      'bound); Requests made before keep the name and language their signers saw.',
    params: { account_site_id: SITE },
    body: { codec: UpdateAccountSiteBody },
    responses: { 200: { description: 'The Site as it now is.', codec: AccountSiteView } },
    problems: ['not_found', 'account_admin_required', 'site_name_taken'],
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
];
