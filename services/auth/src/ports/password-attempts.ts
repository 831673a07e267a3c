import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as E from 'fp-ts/lib/Either.js';
import type { AttemptState, Blocked } from '../domain/throttle.js';

/** Shared (all replicas) count of password attempts per key. */
export interface PasswordAttempts {
  /**
   * Applies `decide` to the key's state atomically (no two attempts read the same state)
   * and stores the state it allows; Blocked when `decide` refuses the attempt.
   */
  readonly register: (
    key: string,
    decide: (state: AttemptState | undefined) => E.Either<Blocked, AttemptState>,
  ) => TE.TaskEither<Blocked, AttemptState>;
  readonly clear: (key: string) => TE.TaskEither<never, void>;
}
