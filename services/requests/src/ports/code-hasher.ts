import type * as TE from 'fp-ts/lib/TaskEither.js';

/** Hashes the secrets signers type (access codes, one-time codes) and compares them in constant time. */
export interface CodeHasher {
  readonly hash: (code: string) => TE.TaskEither<never, string>;
  readonly verify: (code: string, encoded: string) => TE.TaskEither<never, boolean>;
}
