import * as E from 'fp-ts/lib/Either.js';
import type { AuthError } from './errors.js';

/**
 * What a new password must be (NIST SP 800-63B: length over composition rules). The
 * upper bound keeps one hash cheap enough; scrypt itself would take any length.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/** Unicode passwords are compared in NFKC, so the same characters typed on another keyboard match. */
export const normalizePassword = (password: string): string => password.normalize('NFKC');

export const checkNewPassword = (password: string, email: string): E.Either<AuthError, string> => {
  const normalized = normalizePassword(password);
  const length = [...normalized].length;
  if (length < PASSWORD_MIN_LENGTH)
    return E.left({ _tag: 'WeakPassword', reason: `must be at least ${PASSWORD_MIN_LENGTH} characters` });
  if (length > PASSWORD_MAX_LENGTH)
    return E.left({ _tag: 'WeakPassword', reason: `must be at most ${PASSWORD_MAX_LENGTH} characters` });
  if (normalized.trim() === '') return E.left({ _tag: 'WeakPassword', reason: 'must not be blank' });
  if (normalized.toLowerCase() === email.toLowerCase())
    return E.left({ _tag: 'WeakPassword', reason: 'must not be the e-mail address' });
  return E.right(password);
};

/** A weak-password refusal as the body's `field` (`new_password`, `password`) names it. */
export const weakPasswordIn =
  (field: string) =>
  (error: AuthError): AuthError =>
    error._tag === 'WeakPassword' ? { ...error, field } : error;
