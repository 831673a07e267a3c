// The audit trail's record of each correction of a signer (ADR 3140): kept from the
// `request.signer_updated` event, as part of the statement that stores the correction.
import * as t from 'io-ts';
import { nullable, type DomainEvent, type RequestSignerUpdated } from '@esign/contracts';
import { db, sql, type Queryable } from '@esign/platform/database';
import {
  isContactCorrection,
  type CorrectionEvidence,
  type SignerCorrectionRecord,
} from '../../domain/signer-correction.js';
import { JsonTimestamp } from './rows.js';

type Fragment = ReturnType<typeof sql.fragment>;

const isCorrection = (e: DomainEvent): e is RequestSignerUpdated =>
  e.type === 'request.signer_updated' && isContactCorrection(e.data.changed);

/**
 * The insert of the corrections among `events`, for a data-modifying CTE that writes only
 * where `when` holds (the transition was stored); undefined when there are none. `askedFrom`:
 * where the signer who asked for their correction acted from (ADR 3560).
 */
export const correctionsInsert = (
  events: readonly DomainEvent[],
  when: Fragment,
  askedFrom?: CorrectionEvidence,
): Fragment | undefined => {
  const corrections = events.filter(isCorrection);
  if (corrections.length === 0) return undefined;
  const from = (signerRef: string) => (askedFrom?.signerRef === signerRef ? askedFrom : undefined);
  return sql.fragment`
    INSERT INTO request_signer_corrections
      (request_id, signer_ref, corrected_at, corrected_by, previous_email, previous_mobile,
       previous_send_email, previous_send_sms, email, mobile_number, send_email, send_sms, link_replaced,
       previous_signer_id, signer_id, ip, user_agent)
    SELECT * FROM ${sql.unnest(
      corrections.map(({ aggregate_id, occurred_at, data: d }) => [
        aggregate_id,
        d.signer_ref,
        occurred_at,
        d.corrected_by,
        d.previous.email,
        d.previous.mobile_number,
        d.previous.send_to.email,
        d.previous.send_to.mobile_number,
        d.email,
        d.mobile_number,
        d.send_to.email,
        d.send_to.mobile_number,
        d.link_replaced,
        // Someone else in the place (ADR 3550).
        d.previous.signer_id ?? null,
        d.previous.signer_id === undefined ? null : d.signer_id,
        from(d.signer_ref)?.ip ?? null,
        from(d.signer_ref)?.userAgent ?? null,
      ]),
      [
        'uuid',
        'text',
        'timestamptz',
        'text',
        'text',
        'text',
        'bool',
        'bool',
        'text',
        'text',
        'bool',
        'bool',
        'bool',
        'text',
        'text',
        'text',
        'text',
      ],
    )}
    WHERE ${when}`;
};

const CorrectionRow = t.type({
  signer_ref: t.string,
  corrected_at: JsonTimestamp,
  corrected_by: t.string,
  previous_email: nullable(t.string),
  previous_mobile: nullable(t.string),
  previous_send_email: t.boolean,
  previous_send_sms: t.boolean,
  email: nullable(t.string),
  mobile_number: nullable(t.string),
  send_email: t.boolean,
  send_sms: t.boolean,
  link_replaced: t.boolean,
  previous_signer_id: nullable(t.string),
  signer_id: nullable(t.string),
  ip: nullable(t.string),
  user_agent: nullable(t.string),
});

/** A Request's corrections, oldest first. */
export const listCorrections = async (
  q: Queryable,
  requestId: string,
): Promise<readonly SignerCorrectionRecord[]> =>
  (
    await db.any(
      q,
      CorrectionRow,
      sql.unsafe`
        SELECT signer_ref, corrected_at, corrected_by, previous_email, previous_mobile,
               previous_send_email, previous_send_sms, email, mobile_number, send_email, send_sms, link_replaced,
               previous_signer_id, signer_id, ip, user_agent
        FROM request_signer_corrections WHERE request_id = ${requestId} ORDER BY id`,
    )
  ).map((r) => ({
    signerRef: r.signer_ref,
    at: r.corrected_at,
    by: r.corrected_by,
    previous: {
      contact: { email: r.previous_email, mobileNumber: r.previous_mobile },
      sendTo: { email: r.previous_send_email, sms: r.previous_send_sms },
    },
    current: {
      contact: { email: r.email, mobileNumber: r.mobile_number },
      sendTo: { email: r.send_email, sms: r.send_sms },
    },
    linkReplaced: r.link_replaced,
    ...(r.previous_signer_id !== null &&
      r.signer_id !== null && { replaced: { previous: r.previous_signer_id, current: r.signer_id } }),
    ...(r.ip !== null && r.user_agent !== null && { from: { ip: r.ip, userAgent: r.user_agent } }),
  }));
