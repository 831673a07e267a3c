import * as t from 'io-ts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  db,
  insertEvents,
  prepared,
  sql,
  type DatabasePool,
  type OutboxHandoff,
} from '@esign/platform/database';
import type { DeliveryKey, OutcomeEvent, Settlement } from '../../domain/delivery.js';
import type { Claim, ClaimRequest, DeliveryStore } from '../../ports/delivery-store.js';

const AttemptRow = t.type({ attempts: t.number });
const StatusRow = t.type({
  status: t.keyof({ sending: null, retrying: null, delivered: null, failed: null }),
});

const matches = (key: DeliveryKey) =>
  sql.fragment`event_id = ${key.eventId} AND signer_ref = ${key.signerRef} AND channel = ${key.channel}`;

/**
 * The deliveries and delivery_attempts tables (migrations/), with the outbox in the same
 * statement as an outcome. Claim, settle and defer are single statements (atomic without a
 * transaction block): each message costs a round trip less than BEGIN … COMMIT would.
 * A statement that fails rejects.
 */
export const postgresDeliveryStore = (pool: DatabasePool, handoff?: OutboxHandoff): DeliveryStore => ({
  claim: (request: ClaimRequest) =>
    TE.rightTask(async (): Promise<Claim> => {
      const { key } = request;
      // One statement decides, so two workers racing for the same message cannot both
      // win: the loser waits on the row lock and then sees the winner's fresh lease.
      const claimed = await db.maybeOne(
        pool,
        AttemptRow,
        prepared(sql.unsafe`
          WITH claimed AS (
            INSERT INTO deliveries
              (event_id, signer_ref, channel, request_id, signer_id, recipient, site_id, address,
               status, attempts, lease_until)
            VALUES (${key.eventId}, ${key.signerRef}, ${key.channel}, ${request.requestId}, ${request.signerId},
                    ${request.recipient}, ${request.siteId}, ${request.address},
                    'sending', 1, now() + ${request.leaseMs} * interval '1 millisecond')
            ON CONFLICT (event_id, signer_ref, channel) DO UPDATE
              SET status = 'sending', attempts = deliveries.attempts + 1,
                  lease_until = EXCLUDED.lease_until, updated_at = now()
              WHERE deliveries.status = 'retrying'
                 OR (deliveries.status = 'sending' AND deliveries.lease_until <= now())
            RETURNING event_id, signer_ref, channel, attempts
          ), attempt AS (
            INSERT INTO delivery_attempts (event_id, signer_ref, channel, attempt)
            SELECT event_id, signer_ref, channel, attempts FROM claimed
          )
          SELECT attempts FROM claimed`),
      );
      if (claimed !== undefined) return { _tag: 'Claimed', attempt: claimed.attempts };
      const { status } = await db.one(
        pool,
        StatusRow,
        sql.unsafe`SELECT status FROM deliveries WHERE ${matches(key)}`,
      );
      return status === 'delivered' || status === 'failed' ? { _tag: 'Settled', status } : { _tag: 'Busy' };
    }),

  // One statement: the attempt's outcome, the message's, and (only for the owner of the
  // attempt) the event that reports it. Atomic without BEGIN … COMMIT: one round trip per
  // message instead of four (ADR 2501). With the relay's hand-off the event is published
  // as soon as the statement ends, when it wrote one (ADR 2660).
  settle: (key: DeliveryKey, attempt: number, settlement: Settlement, event: OutcomeEvent) =>
    TE.rightTask(async () => {
      const delivered = settlement._tag === 'Delivered';
      const status = delivered ? 'delivered' : 'failed';
      const providerId = delivered ? settlement.providerMessageId : null;
      const error = delivered ? null : settlement.error;
      const { rowCount } = await pool.query(
        prepared(sql.unsafe`
        WITH attempt AS (
          UPDATE delivery_attempts
          SET finished_at = now(), outcome = ${status}, provider_message_id = ${providerId}, error = ${error}
          WHERE ${matches(key)} AND attempt = ${attempt}
        ), owned AS (
          UPDATE deliveries
          SET status = ${status}, provider_message_id = ${providerId}, last_error = ${error},
              lease_until = NULL, settled_at = now(), updated_at = now()
          WHERE ${matches(key)} AND status = 'sending' AND attempts = ${attempt}
          RETURNING true AS owned
        )
        -- Only the owner of the attempt reports it: a worker whose lease was taken over
        -- leaves the outcome (and its event) to the one that holds the message now.
        ${insertEvents([event], { when: sql.fragment`EXISTS (SELECT 1 FROM owned)`, handedOff: handoff !== undefined })}`),
      );
      if (rowCount === 1) handoff?.publishCommitted([event]);
    }),

  defer: (key: DeliveryKey, attempt: number, error: string) =>
    TE.rightTask(async () => {
      const reason = error.slice(0, 1000);
      await pool.query(sql.unsafe`
        WITH attempt AS (
          UPDATE delivery_attempts SET finished_at = now(), outcome = 'transient', error = ${reason}
          WHERE ${matches(key)} AND attempt = ${attempt}
        )
        UPDATE deliveries
        SET status = 'retrying', last_error = ${reason}, lease_until = NULL, updated_at = now()
        WHERE ${matches(key)} AND status = 'sending' AND attempts = ${attempt}`);
    }),
});
