import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { scryptHasher, type ScryptParams } from '@esign/platform';
import type { PasswordHasher } from '../../ports/password-hasher.js';

export { PRODUCTION_SCRYPT, type ScryptParams } from '@esign/platform';

/** The derivation starts on the call, as the platform's does: its queue counts it at once (`saturated`). */
const started =
  <A>(run: () => Promise<A>): TE.TaskEither<never, A> =>
  () =>
    run().then(E.right);

/** Auth's password hasher: the platform's scrypt KDF (shared with the requests service's access codes). */
export const scryptPasswordHasher = (
  params?: ScryptParams,
  options?: { readonly concurrency?: number; readonly maxQueue?: number },
): PasswordHasher => {
  const kdf = scryptHasher(params, options);
  return {
    hash: (password) => started(kdf.hash(password)),
    verify: (password, encoded) => started(kdf.verify(password, encoded)),
    verifyNobody: (password) => started(kdf.verifyNobody(password)),
    needsRehash: kdf.needsRehash,
    saturated: kdf.saturated,
  };
};
