import type * as T from 'fp-ts/lib/Task.js';

/** A ceiling on hits per key per fixed window, shared by every replica. */
export interface QuotaLimit {
  readonly key: string;
  readonly max: number;
}

export interface RequestQuota {
  /**
   * Counts one hit against every limit in the window holding `now`; answers how many
   * seconds until the window ends when any limit is now exceeded, else undefined.
   */
  readonly take: (
    limits: readonly QuotaLimit[],
    windowSeconds: number,
    now: Date,
  ) => T.Task<number | undefined>;
}
