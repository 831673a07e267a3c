import type * as TE from 'fp-ts/lib/TaskEither.js';

/** Whether a bulk-send row may be sent now (ADR 2201). */
export type Allowance = { readonly _tag: 'Allowed' } | { readonly _tag: 'Wait'; readonly seconds: number };

/**
 * Charges one send to the caller's money-costing bucket, the one the gateway charges for
 * a send call: a bulk send's rows are paced by the same limit as single sends, so it
 * cannot be used to go around it. No failure to branch on: an outage of the shared store
 * is the limiter's to absorb (it falls back to this replica's own buckets).
 */
export type SendAllowance = (who: {
  readonly tokenId: string;
  readonly testModeOnly: boolean;
}) => TE.TaskEither<never, Allowance>;
