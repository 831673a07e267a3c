import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';

export interface IdempotencyScope {
  readonly siteId: number;
  readonly key: string;
}

export type IdempotencyRefusal =
  /** Another call with this key is still running. */
  | { readonly _tag: 'IdempotencyKeyInFlight' }
  /** The key was first used for another call (another body or another endpoint). */
  | { readonly _tag: 'IdempotencyKeyReused' };

/**
 * Remembers the answer of each successful call made with an `Idempotency-Key`, inside the
 * call's own transaction, so a stored answer always matches what was committed.
 */
export interface IdempotencyStore {
  /**
   * Claims the key for this transaction: answers the stored answer when the same call
   * already succeeded, nothing when the key is new (or its record has lapsed).
   */
  readonly claim: (
    scope: IdempotencyScope,
    fingerprint: string,
  ) => TE.TaskEither<IdempotencyRefusal, O.Option<unknown>>;
  readonly remember: (
    scope: IdempotencyScope,
    fingerprint: string,
    answer: unknown,
  ) => TE.TaskEither<never, void>;
}
