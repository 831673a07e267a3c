import { scryptHasher, type ScryptParams } from '@esign/platform';
import type { PasswordHasher } from '../../ports/password-hasher.js';

export { PRODUCTION_SCRYPT, type ScryptParams } from '@esign/platform';

/** Auth's password hasher: the platform's scrypt KDF (shared with the requests service's access codes). */
export const scryptPasswordHasher = (
  params?: ScryptParams,
  options?: { readonly concurrency?: number; readonly maxQueue?: number },
): PasswordHasher => scryptHasher(params, options);
