import * as t from 'io-ts';
import type { RequestDeliveryFailed } from '@esign/contracts';
import { db, insertEvents, prepared, sql, type Queryable } from '@esign/platform/database';
import { claimEvent, claimEventStatement } from '@esign/platform/messaging';
import type { DeliveryOutcome, DeliveryOutcomeStore } from '../../ports/delivery-outcome-store.js';
import { UUID } from './request-reads.js';
import { historyInsert } from './request-history.js';
import { toDeliveryJson } from './request-signer-writes.js';
import { task } from './task.js';

const Recorded = t.type({ fresh: t.boolean, known: t.boolean });

// A column per channel, named in full: the statement below is built from fixed text only.
const column = {
  email: {
    target: sql.identifier(['email_delivery']),
    current: sql.identifier(['rs', 'email_delivery']),
    address: sql.identifier(['rs', 'sent_email']),
  },
  sms: {
    target: sql.identifier(['sms_delivery']),
    current: sql.identifier(['rs', 'sms_delivery']),
    address: sql.identifier(['rs', 'sent_mobile_number']),
  },
} as const;

/**
 * The failure's event (ADR 3180), to the outbox and the Request's history, written only
 * if the report was: more CTEs of the same statement.
 */
const told = (notice: RequestDeliveryFailed) => {
  const when = sql.fragment`EXISTS (SELECT 1 FROM recorded)`;
  const kept = historyInsert([notice], when);
  return sql.fragment`,
          published AS (${insertEvents([notice], { when })})${
            kept === undefined
              ? sql.fragment``
              : sql.fragment`,
          kept AS (${kept})`
          }`;
};

/**
 * A delivery report in one statement, outside a transaction (ADR 2650): the inbox claim,
 * the signer looked up on the event's Site, and the conditional write of one column.
 * Postgres runs every data-modifying CTE to completion, and an UPDATE that meets a row
 * changed since its snapshot re-checks its WHERE against the newest version, so two
 * reports on one channel racing each other still leave the later by occurrence.
 */
export const postgresDeliveryOutcomeStore = (q: Queryable): DeliveryOutcomeStore => ({
  record: (outcome: DeliveryOutcome) =>
    task(async () => {
      const { consumer, eventId, requestId, siteId, signerRef, signerId, channel, delivery, to, notice } =
        outcome;
      // Not an id this service ever issued: there is nothing to write, but the event is
      // still claimed, so a redelivery of it is a duplicate like any other.
      if (!UUID.test(requestId))
        return (await claimEvent(q, consumer, eventId)) ? 'unknown-request' : 'duplicate';
      const { target, current, address } = column[channel];
      const row = await db.one(
        q,
        Recorded,
        prepared(sql.unsafe`
          WITH claim AS (${claimEventStatement(consumer, eventId)}),
          signer AS (
            SELECT rs.request_id, rs.signer_ref
            FROM request_signers rs JOIN requests r ON r.id = rs.request_id
            WHERE rs.request_id = ${requestId} AND rs.signer_ref = ${signerRef} AND r.site_id = ${siteId}
          ),
          recorded AS (
            UPDATE request_signers rs SET ${target} = ${toDeliveryJson(delivery)}::jsonb
            FROM signer s
            WHERE rs.request_id = s.request_id AND rs.signer_ref = s.signer_ref
              AND EXISTS (SELECT 1 FROM claim)
              -- isForCurrentAddress(): not about an address the sender has since corrected.
              -- recordDelivery(): not about a signer since replaced in the place (ADR 3550).
              AND (${signerId ?? null}::text IS NULL OR rs.signer_id = ${signerId ?? null}::text)
              AND (${to ?? null}::text IS NULL OR NOT rs.contact_fixed OR ${address} = ${to ?? null}::text)
              -- supersedes(): the latest by occurrence wins, a tie to the later report.
              AND (${current} IS NULL OR (${current} ->> 'at')::timestamptz <= ${delivery.at}::timestamptz)
            RETURNING 1
          )${notice === undefined ? sql.fragment`` : told(notice)}
          SELECT EXISTS (SELECT 1 FROM claim) AS fresh, EXISTS (SELECT 1 FROM signer) AS known`),
      );
      return !row.fresh ? 'duplicate' : row.known ? 'applied' : 'unknown-request';
    }),
});
