import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';

/** A ceiling on hits per key per fixed window, shared by every replica. */
export interface QuotaLimit {
  readonly key: string;
  readonly max: number;
}

export interface RequestQuota {
  /**
   * Counts one hit against every limit in the window holding `now`; answers how many
   * seconds until the window ends when any limit is now exceeded, else none.
   */
  readonly take: (
    limits: readonly QuotaLimit[],
    windowSeconds: number,
    now: Date,
  ) => TE.TaskEither<never, O.Option<number>>;
}
