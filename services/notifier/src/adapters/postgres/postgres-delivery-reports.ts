import * as t from 'io-ts';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { db, enqueueEvents, sql, type DatabasePool, type OutboxHandoff } from '@esign/platform/database';
import type { AcceptedMessage, DeliveryKey, OutcomeEvent } from '../../domain/delivery.js';
import type { DeliveryReports } from '../../ports/delivery-reports.js';

const AcceptedRow = t.type({
  event_id: t.string,
  request_id: t.string,
  site_id: t.union([t.number, t.string, t.null]),
  signer_id: t.string,
  signer_ref: t.string,
  channel: t.keyof({ email: null, sms: null }),
  address: t.union([t.string, t.null]),
});

/**
 * The deliveries table's side of a provider's later reports (ADR 3880): in one transaction,
 * the accepted message turns failed and the event that says so goes to the outbox, so a
 * report is told once, or not at all and sent again by the provider.
 */
export const postgresDeliveryReports = (pool: DatabasePool, handoff?: OutboxHandoff): DeliveryReports => ({
  undelivered: (providerMessageId: string, channel: DeliveryKey['channel'], error: string, report) =>
    TE.rightTask(async () => {
      const written = await pool.transaction(
        async (tx): Promise<{ message: AcceptedMessage; event: OutcomeEvent } | undefined> => {
          // Rows kept before reports were have no Site to tell the report on: left delivered.
          const row = await db.maybeOne(
            tx,
            AcceptedRow,
            sql.unsafe`
            UPDATE deliveries
            SET status = 'failed', last_error = ${error.slice(0, 1000)}, updated_at = now()
            WHERE provider_message_id = ${providerMessageId} AND channel = ${channel}
              AND status = 'delivered' AND site_id IS NOT NULL
            RETURNING event_id, request_id, site_id, signer_id, signer_ref, channel, address`,
          );
          if (row === undefined) return undefined;
          const message: AcceptedMessage = {
            causeEventId: row.event_id,
            requestId: row.request_id,
            siteId: Number(row.site_id),
            signerId: row.signer_id,
            signerRef: row.signer_ref,
            channel: row.channel,
            address: row.address,
            providerMessageId,
          };
          const event = report(message);
          await enqueueEvents(tx, [event], handoff !== undefined);
          return { message, event };
        },
      );
      if (written === undefined) return O.none;
      handoff?.publishCommitted([written.event]);
      return O.some(written.message);
    }),
});
