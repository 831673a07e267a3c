import { problem } from '@esign/contracts';
import { HttpProblem } from '@esign/platform';
import type { AuthError, Entity } from '../../domain/errors.js';

const entityName: Record<Entity, string> = {
  account: 'account',
  user: 'user',
  site: 'site',
  app: 'app',
  token: 'token',
  key: 'signing key',
  membership: 'membership',
};

/** The one table from auth's domain errors to HTTP problems. */
export const problemOf = (error: AuthError): HttpProblem => {
  switch (error._tag) {
    case 'InvalidCredentials':
      return new HttpProblem(
        problem({
          status: 401,
          code: 'invalid_credentials',
          title: 'Unauthorized',
          detail: 'The e-mail address or the password is wrong.',
        }),
        { 'WWW-Authenticate': 'Bearer' },
      );
    case 'WrongPassword':
      return new HttpProblem(
        problem({
          status: 401,
          code: 'invalid_password',
          title: 'Unauthorized',
          detail: 'The password is wrong; nothing was created.',
          errors: [{ path: 'password', message: 'is wrong' }],
        }),
        { 'WWW-Authenticate': 'Bearer' },
      );
    case 'Throttled':
      return new HttpProblem(
        problem({
          status: 429,
          code: 'too_many_attempts',
          title: 'Too many attempts',
          detail: `Too many password attempts; try again in ${error.retryAfterSeconds} s.`,
        }),
        { 'Retry-After': String(error.retryAfterSeconds) },
      );
    case 'ApiAccessRequired':
      return new HttpProblem(
        problem({
          status: 403,
          code: 'api_access_required',
          title: 'Forbidden',
          detail: 'The account has no REST API access.',
        }),
      );
    case 'UserDisabled':
      return new HttpProblem(
        problem({ status: 403, code: 'user_disabled', title: 'Forbidden', detail: 'The user is disabled.' }),
      );
    case 'SessionRequired':
      return new HttpProblem(
        problem({
          status: 401,
          code: 'session_required',
          title: 'Unauthorized',
          detail: 'Sign in (POST /v1.1/sessions) and send Authorization: Bearer <session_token>.',
        }),
        { 'WWW-Authenticate': 'Bearer' },
      );
    case 'SessionInvalid':
      return new HttpProblem(
        problem({
          status: 401,
          code: 'session_invalid',
          title: 'Unauthorized',
          detail: 'The session has expired or ended; sign in again.',
        }),
        { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      );
    case 'NotFound':
      return new HttpProblem(
        problem({
          status: 404,
          code: 'not_found',
          title: 'Not found',
          detail: `No ${entityName[error.entity]} ${error.id}.`,
        }),
      );
    case 'EmailTaken':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'email_taken',
          title: 'Conflict',
          detail: `A user with e-mail address ${error.email} exists.`,
        }),
      );
    case 'SiteNameTaken':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'site_name_taken',
          title: 'Conflict',
          detail: `The account has a site named ${JSON.stringify(error.name)}.`,
        }),
      );
    case 'DifferentAccounts':
      return new HttpProblem(
        problem({
          status: 409,
          code: 'different_accounts',
          title: 'Conflict',
          detail: `User ${error.userId} and site ${error.siteId} belong to different accounts.`,
        }),
      );
    case 'WeakPassword':
      return new HttpProblem(
        problem({
          status: 422,
          code: 'weak_password',
          title: 'Invalid request body',
          detail: `The password ${error.reason}.`,
          errors: [{ path: 'password', message: error.reason }],
        }),
      );
    case 'AccountAdminRequired':
      return new HttpProblem(
        problem({
          status: 403,
          code: 'account_admin_required',
          title: 'Forbidden',
          detail: 'Only an administrator of the account may manage its Sites.',
        }),
      );
    case 'NotAccountUser':
      return new HttpProblem(
        problem({
          status: 422,
          code: 'not_account_user',
          title: 'Invalid request body',
          detail: `No user of your account has the e-mail address ${error.email}.`,
          errors: [{ path: 'email', message: 'is not the address of a user of your account' }],
        }),
      );
  }
};
