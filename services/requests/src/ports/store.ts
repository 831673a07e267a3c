import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AttachmentStore } from './attachment-store.js';
import type { BulkSendWriter } from './bulk-send-store.js';
import type { CreationStore } from './creation-store.js';
import type { DeliveryOutcomeStore } from './delivery-outcome-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { Inbox } from './inbox.js';
import type { Outbox } from './outbox.js';
import type { RequestRepository } from './request-repository.js';
import type { SignerActRepository } from './signer-act-repository.js';
import type { SignerChallengeRepository } from './signer-challenge-repository.js';
import type { TemplateRepository } from './template-repository.js';

/** Everything the service keeps, bound to one connection or one transaction. */
export interface Store {
  readonly templates: TemplateRepository;
  readonly requests: RequestRepository;
  readonly acts: SignerActRepository;
  readonly challenges: SignerChallengeRepository;
  readonly idempotency: IdempotencyStore;
  readonly outbox: Outbox;
  readonly inbox: Inbox;
  /** Writes a new bulk send and its rows (ADR 2201), in the caller's transaction. */
  readonly bulkSends: BulkSendWriter;
  /** A create's reads and writes, one round trip each (ADR 2610). */
  readonly creation: CreationStore;
  /** The notifier's reports on the signers' messages, one statement each (ADR 2650). */
  readonly deliveries: DeliveryOutcomeStore;
  /** The files signers uploaded for attachment fields (ADR 3920). */
  readonly attachments: AttachmentStore;
}

/**
 * Runs `work` in one transaction: it commits when `work` answers Right and rolls back
 * when it answers Left (or throws), so a refused call leaves nothing half-written.
 */
export type Transact = WithStore;

/** Runs `work` with the store bound to one connection or transaction. */
type WithStore = <E, A>(work: (store: Store) => TE.TaskEither<E, A>) => TE.TaskEither<E, A>;

/**
 * Runs `work` on one connection without a transaction: each statement commits on its
 * own. Only for work whose reads lock nothing and which writes in one statement at most,
 * so a Left or a failure still leaves nothing half-written; it saves the BEGIN and
 * COMMIT round trips a transaction would add (ADR 2640).
 */
export type Autocommit = WithStore;
