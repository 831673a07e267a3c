import { HttpProblem } from '@esign/platform';
import { authProblem } from '../../application/problems.js';
import type { AuthError } from '../../domain/errors.js';

/** What HTTP adds to a problem: the challenge of a 401, the wait of a 429. */
const headersOf = (error: AuthError): Record<string, string> => {
  switch (error._tag) {
    case 'InvalidCredentials':
    case 'WrongPassword':
    case 'WrongCurrentPassword':
    case 'SessionRequired':
      return { 'WWW-Authenticate': 'Bearer' };
    case 'SessionInvalid':
      return { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
    case 'Throttled':
    case 'RateLimited':
    case 'TooManyInvitations':
      return { 'Retry-After': String(error.retryAfterSeconds) };
    case 'Busy':
      return { 'Retry-After': '1' };
    default:
      return {};
  }
};

/** Auth's domain errors as HTTP problems: the table is `authProblem`, the headers are HTTP's. */
export const problemOf = (error: AuthError): HttpProblem =>
  new HttpProblem(authProblem(error), headersOf(error));
