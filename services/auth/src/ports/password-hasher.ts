import type * as TE from 'fp-ts/lib/TaskEither.js';

/** A memory-hard password KDF. Passwords arrive already normalised (NFKC). */
export interface PasswordHasher {
  readonly hash: (password: string) => TE.TaskEither<never, string>;
  /** Constant-time comparison; a malformed stored hash verifies nothing. */
  readonly verify: (password: string, encoded: string) => TE.TaskEither<never, boolean>;
  /** Spends what `verify` spends and answers false, so an unknown e-mail takes as long as a known one. */
  readonly verifyNobody: (password: string) => TE.TaskEither<never, false>;
  /** Whether a stored hash was made with other parameters than today's (upgrade it at sign-in). */
  readonly needsRehash: (encoded: string) => boolean;
  /** Whether as many derivations wait as it will queue: a password check now answers 503 at once. */
  readonly saturated: () => boolean;
}
