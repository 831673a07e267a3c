import * as E from 'fp-ts/lib/Either.js';
import type { DatabasePool, Queryable } from '@esign/platform';
import type { Autocommit, Store, Transact } from '../../ports/store.js';
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
}

export const postgresStore = (q: Queryable, options: StoreOptions): Store => ({
  templates: postgresTemplateRepository(q),
  requests: postgresRequestRepository(q),
  acts: postgresSignerActRepository(q),
  challenges: postgresSignerChallengeRepository(q),
  idempotency: postgresIdempotencyStore(q, options.idempotencyRetentionHours),
  outbox: postgresOutbox(q),
  inbox: postgresInbox(q),
  bulkSends: postgresBulkSendWriter(q),
  creation: postgresCreationStore(q),
  deliveries: postgresDeliveryOutcomeStore(q),
});

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
      try {
        return await connection.transaction(async (tx) => {
          const result = await work(postgresStore(tx, options))();
          if (E.isLeft(result)) throw new Rollback(result);
          return result;
        });
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
    pool.connect((connection) => work(postgresStore(connection, options))());
