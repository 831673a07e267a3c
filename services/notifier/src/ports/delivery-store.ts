import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DeliveryKey, OutcomeEvent, Settlement } from '../domain/delivery.js';

/** What the store says about a message we are about to send. */
export type Claim =
  /** Ours to send now; `attempt` counts every attempt so far, this one included. */
  | { readonly _tag: 'Claimed'; readonly attempt: number }
  /** Already accepted or failed for good: nothing to send. */
  | { readonly _tag: 'Settled'; readonly status: 'delivered' | 'failed' }
  /** Another worker is sending it right now (its lease has not expired). */
  | { readonly _tag: 'Busy' };

export interface ClaimRequest {
  readonly key: DeliveryKey;
  readonly requestId: string;
  readonly signerId: string;
  readonly recipient: string;
  /** The Site and the address as the cause named it: what a later report on the message names (ADR 3880). */
  readonly siteId: number;
  readonly address: string | null;
  /** How long the claim keeps other workers off; longer than any send can take. */
  readonly leaseMs: number;
}

/**
 * The deliveries table: one row per (event, signer, channel) and one per attempt. A
 * claim is committed before the provider is called and the outcome after, so a crash
 * in between leaves an attempt without an outcome: the one case that may send twice.
 * An outage rejects: the pass is retried as a whole.
 */
export interface DeliveryStore {
  readonly claim: (request: ClaimRequest) => TE.TaskEither<never, Claim>;
  /**
   * Records the final outcome of `attempt` and, in the same transaction, the event that
   * reports it. Does nothing when the attempt is no longer ours (its lease was taken over).
   */
  readonly settle: (
    key: DeliveryKey,
    attempt: number,
    settlement: Settlement,
    event: OutcomeEvent,
  ) => TE.TaskEither<never, void>;
  /** Records a transient failure of `attempt`; the message stays to be retried. */
  readonly defer: (key: DeliveryKey, attempt: number, error: string) => TE.TaskEither<never, void>;
}
