import { problem, type Problem } from '@esign/contracts';
import type { AuthError, Entity } from '../domain/errors.js';

const entityName: Record<Entity, string> = {
  account: 'account',
  user: 'user',
  site: 'site',
  app: 'app',
  token: 'token',
  key: 'signing key',
  membership: 'membership',
  invitation: 'invitation',
  session: 'session',
};

/**
 * The one table from auth's domain errors to problems (RFC 9457, the contracts' shape):
 * the HTTP edge answers them, the admin CLI prints their code and sentence.
 */
export const authProblem = (error: AuthError): Problem => {
  switch (error._tag) {
    case 'InvalidCredentials':
      return problem({
        status: 401,
        code: 'invalid_credentials',
        title: 'Unauthorized',
        detail: 'The e-mail address or the password is wrong.',
      });
    case 'WrongPassword':
      return problem({
        status: 401,
        code: 'invalid_password',
        title: 'Unauthorized',
        detail: 'The password is wrong; nothing was created.',
        errors: [{ path: 'password', message: 'is wrong' }],
      });
    case 'InvalidResetToken':
      return problem({
        status: 400,
        code: 'invalid_reset_token',
        title: 'Invalid request body',
        detail:
          'This link to choose a new password is unknown, used, replaced by a newer one or expired; ask for a new one. Nothing was changed.',
        errors: [{ path: 'token', message: 'is unknown, used or expired' }],
      });
    case 'WrongCurrentPassword':
      return problem({
        status: 401,
        code: 'invalid_password',
        title: 'Unauthorized',
        detail: 'The current password is wrong; nothing was changed.',
        errors: [{ path: 'current_password', message: 'is wrong' }],
      });
    case 'Throttled':
      return problem({
        status: 429,
        code: 'too_many_attempts',
        title: 'Too many attempts',
        detail: `Too many password attempts; try again in ${error.retryAfterSeconds} s.`,
      });
    case 'AccountAdminRequired':
      return problem({
        status: 403,
        code: 'account_admin_required',
        title: 'Forbidden',
        detail:
          'Only an administrator of the account may see and change its Sites, users and invitations, or rename it.',
      });
    case 'SitesNotReachable':
      return problem({
        status: 400,
        code: 'sites_not_reachable',
        title: 'Invalid request body',
        detail: `A token can be limited only to Sites you belong to; not to ${error.siteIds.join(', ')}. Nothing was created.`,
        errors: [
          { path: 'site_ids', message: `names Sites you do not belong to: ${error.siteIds.join(', ')}` },
        ],
      });
    case 'InvalidAuthorizationRequest':
      return problem({
        status: 400,
        code: 'invalid_authorization_request',
        title: 'Invalid authorization request',
        detail: `The app's request cannot be answered: ${error.field} ${error.reason}.`,
        errors: [{ path: error.field, message: error.reason }],
      });
    case 'NoSitesToGrant':
      return problem({
        status: 422,
        code: 'no_sites_to_grant',
        title: 'Invalid request body',
        detail: 'You belong to no Site, so there is nothing to allow the app to reach.',
        errors: [{ path: 'site_ids', message: 'you belong to no Site' }],
      });
    case 'NotAccountUser':
      return problem({
        status: 422,
        code: 'not_account_user',
        title: 'Invalid request body',
        detail: `No user of your account has the e-mail address ${error.email}.`,
        errors: [{ path: 'email', message: 'is not the address of a user of your account' }],
      });
    case 'CannotDisableYourself':
      return problem({
        status: 409,
        code: 'cannot_disable_yourself',
        title: 'Conflict',
        detail:
          'You cannot disable your own user: the account would lose its administrator. Nothing changed.',
        errors: [{ path: 'disabled', message: 'cannot be true for your own user' }],
      });
    case 'LastAdmin':
      return problem({
        status: 409,
        code: 'last_admin',
        title: 'Conflict',
        detail:
          'You are the account’s only enabled admin: make another user admin before you step down. Nothing changed.',
        errors: [{ path: 'admin', message: 'cannot be false for the account’s only enabled admin' }],
      });
    case 'AlreadyAccountUser':
      return problem({
        status: 409,
        code: 'already_account_user',
        title: 'Conflict',
        detail: `A user of your account already has the e-mail address ${error.email}; nothing was sent.`,
        errors: [{ path: 'email', message: 'is the address of a user of your account' }],
      });
    case 'UnknownSites':
      return problem({
        status: 422,
        code: 'unknown_sites',
        title: 'Invalid request body',
        detail: `Your account has no Site ${error.siteIds.join(', ')}; nothing was sent.`,
        errors: [{ path: 'site_ids', message: `names no Site of your account: ${error.siteIds.join(', ')}` }],
      });
    case 'TooManyInvitations':
      return problem({
        status: 429,
        code: 'too_many_invitations',
        title: 'Too many requests',
        detail: `Your account sent its invitations of the hour; try again in ${error.retryAfterSeconds} s.`,
      });
    case 'InvalidInvitationToken':
      return problem({
        status: 400,
        code: 'invalid_invitation_token',
        title: 'Invalid request body',
        detail:
          'This invitation link is unknown, used, revoked, replaced by a newer invitation or expired; ask the person who invited you for a new one. Nothing was made.',
        errors: [{ path: 'token', message: 'is unknown, used or expired' }],
      });
    case 'RateLimited':
      return problem({
        status: 429,
        code: 'rate_limited',
        title: 'Too many requests',
        detail: `Too many calls; try again in ${error.retryAfterSeconds} s.`,
      });
    case 'Busy':
      return problem({
        status: 503,
        code: 'busy',
        title: 'Busy',
        detail: 'Too many sign-ins are being checked right now; try again in a moment.',
      });
    case 'ApiAccessRequired':
      return problem({
        status: 403,
        code: 'api_access_required',
        title: 'Forbidden',
        detail: 'The account has no REST API access.',
      });
    case 'UserDisabled':
      return problem({
        status: 403,
        code: 'user_disabled',
        title: 'Forbidden',
        detail: 'The user is disabled.',
      });
    case 'SessionRequired':
      return problem({
        status: 401,
        code: 'session_required',
        title: 'Unauthorized',
        detail: 'Sign in (POST /v1.1/sessions) and send Authorization: Bearer <session_token>.',
      });
    case 'SessionInvalid':
      return problem({
        status: 401,
        code: 'session_invalid',
        title: 'Unauthorized',
        detail: 'The session has expired or ended; sign in again.',
      });
    case 'NotFound':
      return problem({
        status: 404,
        code: 'not_found',
        title: 'Not found',
        detail: `No ${entityName[error.entity]} ${error.id}.`,
      });
    case 'EmailTaken':
      return problem({
        status: 409,
        code: 'email_taken',
        title: 'Conflict',
        detail: `A user with e-mail address ${error.email} exists already (they sign in with it); nothing was made.`,
      });
    case 'SiteNameTaken':
      return problem({
        status: 409,
        code: 'site_name_taken',
        title: 'Conflict',
        detail: `The account has a site named ${JSON.stringify(error.name)}.`,
        errors: [{ path: 'name', message: 'is the name of another Site of the account' }],
      });
    case 'TooManySites':
      return problem({
        status: 409,
        code: 'too_many_sites',
        title: 'Conflict',
        detail: `The account has ${error.max} Sites, the most it may have; nothing was made.`,
      });
    case 'DifferentAccounts':
      return problem({
        status: 409,
        code: 'different_accounts',
        title: 'Conflict',
        detail: `User ${error.userId} and site ${error.siteId} belong to different accounts.`,
      });
    case 'WeakPassword':
      return problem({
        status: 422,
        code: 'weak_password',
        title: 'Invalid request body',
        detail: `The ${error.field === undefined ? 'password' : 'new password'} ${error.reason}.`,
        errors: [{ path: error.field ?? 'password', message: error.reason }],
      });
  }
};
