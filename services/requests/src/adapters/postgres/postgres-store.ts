import * as E from 'fp-ts/lib/Either.js';
import type { DatabasePool, OutboxHandoff, OutgoingEvent, Queryable } from '@esign/platform/database';
import type { Autocommit, Store, Transact } from '../../ports/store.js';
import { postgresAttachmentStore } from './postgres-attachment-store.js';
import { postgresBulkSendWriter } from './postgres-bulk-send-store.js';
import { postgresCreationStore } from './postgres-creation-store.js';
import { postgresDeliveryOutcomeStore } from './postgres-delivery-outcome-store.js';
import { postgresIdempotencyStore } from './postgres-idempotency-store.js';
import { postgresInbox, postgresOutbox } from './postgres-messaging.js';
import { postgresRequestRepository } from './postgres-request-repository.js';
import { postgresSignerActRepository } from './postgres-signer-act-repository.js';
import { postgresSignerChallengeRepository } from './postgres-signer-challenge-repository.js';
import { postgresTemplateRepository } from './postgres-template-repository.js';

export interface StoreOptions {
  /** How long an Idempotency-Key's answer is kept (at least 24 h). */
  readonly idempotencyRetentionHours: number;
  /**
   * The outbox relay's hand-off (ADR 2660): a unit of work's events are published as
   * soon as it committed rather than on the relay's next drain. Without it (tests that
   * run no relay of their own) every event waits for the relay.
   */
  readonly handoff?: OutboxHandoff | undefined;
}

/**
 * The ports over one connection or transaction. With `handedOff`, the events the work
 * writes are written for hand-off and collected there, for the caller to publish once
 * they committed; without, they wait for the relay.
 */
export const postgresStore = (q: Queryable, options: StoreOptions, handedOff?: OutgoingEvent[]): Store => ({
  templates: postgresTemplateRepository(q),
  requests: postgresRequestRepository(q, handedOff),
  acts: postgresSignerActRepository(q),
  challenges: postgresSignerChallengeRepository(q),
  idempotency: postgresIdempotencyStore(q, options.idempotencyRetentionHours),
  outbox: postgresOutbox(q, handedOff),
  inbox: postgresInbox(q),
  bulkSends: postgresBulkSendWriter(q),
  creation: postgresCreationStore(q, handedOff),
  deliveries: postgresDeliveryOutcomeStore(q),
  attachments: postgresAttachmentStore(q),
});

/**
 * Gives committed events to the relay. What committed must answer as committed, so a
 * hand-off that throws is ignored: its rows are in the outbox, and the relay takes them
 * when their grace is over.
 */
const handOff = (handoff: OutboxHandoff | undefined, events: readonly OutgoingEvent[]): void => {
  try {
    handoff?.publishCommitted(events);
  } catch {
    // left to the relay
  }
};

/** Carries a Left out of slonik's transaction callback, which rolls back on a throw. */
class Rollback extends Error {
  constructor(readonly result: E.Left<unknown>) {
    super('rollback');
  }
}

/**
 * One transaction per unit of work. slonik retries the whole transaction on a
 * serialization failure or deadlock, which is why `work` must only touch the store.
 * The rollback of a Left is caught on the connection itself: slonik destroys a pooled
 * connection whose handler throws, and a refused call must not cost a reconnect.
 */
export const postgresTransact =
  (pool: DatabasePool, options: StoreOptions): Transact =>
  (work) =>
  () =>
    pool.connect(async (connection) => {
      let written: OutgoingEvent[] = [];
      try {
        const committed = await connection.transaction(async (tx) => {
          // A transaction slonik retries starts its events afresh.
          written = [];
          const result = await work(postgresStore(tx, options, options.handoff && written))();
          if (E.isLeft(result)) throw new Rollback(result);
          return result;
        });
        handOff(options.handoff, written);
        return committed;
      } catch (error) {
        if (error instanceof Rollback) return error.result as never;
        throw error;
      }
    });

/** One pooled connection for the whole of `work`, no BEGIN or COMMIT (ADR 2640). */
export const postgresAutocommit =
  (pool: DatabasePool, options: StoreOptions): Autocommit =>
  (work) =>
  () =>
    pool.connect(async (connection) => {
      // Each statement commits as it ends: whatever was written is out, whatever follows.
      const written: OutgoingEvent[] = [];
      try {
        return await work(postgresStore(connection, options, options.handoff && written))();
      } finally {
        handOff(options.handoff, written);
      }
    });
