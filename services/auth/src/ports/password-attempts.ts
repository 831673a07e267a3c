import type * as E from 'fp-ts/lib/Either.js';
import type * as T from 'fp-ts/lib/Task.js';
import type { AttemptState, Blocked } from '../domain/throttle.js';

/** Shared (all replicas) count of password attempts per key. */
export interface PasswordAttempts {
  /**
   * Applies `decide` to the key's state atomically (no two attempts read the same state)
   * and stores the state it allows.
   */
  readonly register: (
    key: string,
    decide: (state: AttemptState | undefined) => E.Either<Blocked, AttemptState>,
  ) => T.Task<E.Either<Blocked, AttemptState>>;
  readonly clear: (key: string) => T.Task<void>;
}
