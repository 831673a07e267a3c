import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { RequestDeliveryFailed } from '@esign/contracts';
import type { Channel, Delivery } from '../domain/request-model.js';

/** The notifier's report on one message, as the store records it. */
export interface DeliveryOutcome {
  /** The inbox's consumer name: the report is applied once per (consumer, event id). */
  readonly consumer: string;
  readonly eventId: string;
  readonly requestId: string;
  /** The Site the event names: a Request of another Site is unknown to it. */
  readonly siteId: number;
  readonly signerRef: string;
  readonly channel: Channel;
  readonly delivery: Delivery;
  /** The address the message was for; absent from older notifiers' reports (ADR 3140). */
  readonly to?: string;
  /** The signer_id the message was for: not the place's once someone else is in it (ADR 3550). */
  readonly signerId?: string;
  /**
   * A failure's event for the client (ADR 3180): published through the outbox and kept
   * in the Request's history, both only if this report became the signer's status.
   */
  readonly notice?: RequestDeliveryFailed;
}

/** `duplicate`: the event was applied before; `unknown-request`: no such Request or signer on the Site. */
export type DeliveryOutcomeResult = 'applied' | 'duplicate' | 'unknown-request';

/**
 * The signers' delivery statuses (ADR 2650). `record` is one atomic write: it claims
 * the event in the inbox and, when the claim is fresh and the Request has that signer on
 * that Site, sets the channel's delivery unless the one recorded there occurred later
 * (`supersedes`, the domain's rule). It writes that one column of that one signer, and
 * every other write of a signer leaves the column as it is unless it changed it, so it
 * needs no lock on the Request and no read of it. When it sets the status it also
 * writes the outcome's `notice`, if any, in the same statement.
 */
export interface DeliveryOutcomeStore {
  readonly record: (outcome: DeliveryOutcome) => TE.TaskEither<never, DeliveryOutcomeResult>;
}
