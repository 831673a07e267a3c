import * as TE from 'fp-ts/lib/TaskEither.js';
import { scryptHasher, type SecretHasher } from '@esign/platform';
import type { CodeHasher } from '../../ports/code-hasher.js';

/**
 * Signers' codes through the platform's scrypt hasher, in the `$scrypt$…` form auth's
 * passwords take too.
 */
export const scryptCodeHasher = (hasher: SecretHasher = scryptHasher()): CodeHasher => ({
  hash: (code) => TE.rightTask(hasher.hash(code)),
  verify: (code, encoded) => TE.rightTask(hasher.verify(code, encoded)),
});
