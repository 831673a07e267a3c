import { db, sql, type Queryable } from '@esign/platform/database';

/** Runs `deleteBatch` (a DELETE of at most `batch` rows) until one removes fewer; answers how many went. */
const inBatches = async (
  q: Queryable,
  batch: number,
  deleteBatch: ReturnType<typeof sql.unsafe>,
): Promise<number> => {
  let total = 0;
  for (;;) {
    const deleted = await db.exec(q, deleteBatch);
    total += deleted;
    if (deleted < batch) return total;
  }
};

/**
 * Deletes Idempotency-Key answers past their retention, a batch at a time so the
 * delete never holds many locks. Answers how many went.
 */
export const purgeIdempotencyKeys = async (
  q: Queryable,
  retentionHours: number,
  batch = 1000,
): Promise<number> =>
  inBatches(
    q,
    batch,
    sql.unsafe`
      DELETE FROM idempotency_keys WHERE (site_id, key) IN (
        SELECT site_id, key FROM idempotency_keys
        WHERE created_at <= now() - make_interval(hours => ${retentionHours})
        LIMIT ${batch})`,
  );

/**
 * Removes the published templates deleted more than `retentionHours` ago (ADR 3460) that no
 * Request and no bulk send names: their documents go with them. A template a Request names
 * stays as long as that Request (ADR 3430); one a bulk send names stays, as the bulk send's
 * list names it. Rows another replica's sweep holds are skipped. A Request made with the
 * template in the meantime (only a create that read it before the delete, hours ago, can)
 * would fail the delete on `request_contracts`' foreign key rather than lose its document;
 * the next run tries again. Answers how many went.
 */
export const purgeDeletedTemplates = async (
  q: Queryable,
  retentionHours: number,
  batch = 100,
): Promise<number> =>
  inBatches(
    q,
    batch,
    sql.unsafe`
      DELETE FROM contract_templates WHERE id IN (
        SELECT t.id FROM contract_templates t
        WHERE t.deleted_at <= now() - make_interval(hours => ${retentionHours})
          AND NOT EXISTS (SELECT 1 FROM request_contracts rc WHERE rc.template_id = t.id)
          AND NOT EXISTS (SELECT 1 FROM bulk_sends b WHERE b.shared->'contracts' @> to_jsonb(t.id))
        ORDER BY t.deleted_at
        LIMIT ${batch}
        FOR UPDATE SKIP LOCKED)`,
  );

/**
 * Removes the files signers uploaded (ADR 3920) that nobody will ever sign with, so a
 * photo of someone's ID is not kept for a Request it has no part in: a signer's who
 * declined, who is no longer a signer of the Request (replaced, or someone signs in their
 * place), whose Request ended without their signature (cancelled, expired, declined by
 * another), or who signed with the field not asked of them. The files signers signed with
 * stay as long as their Request. Rows another replica's sweep holds are skipped. Answers how
 * many went.
 */
export const purgeUnsignedAttachments = async (q: Queryable, batch = 100): Promise<number> =>
  inBatches(
    q,
    batch,
    sql.unsafe`
      DELETE FROM signer_attachments WHERE (request_id, signer_ref, field_name) IN (
        SELECT a.request_id, a.signer_ref, a.field_name
        FROM signer_attachments a
        JOIN requests r ON r.id = a.request_id
        LEFT JOIN request_signers s ON s.request_id = a.request_id AND s.signer_ref = a.signer_ref
        LEFT JOIN signer_acts act ON act.request_id = a.request_id AND act.signer_ref = a.signer_ref
        WHERE s.signer_ref IS NULL
           OR s.state = 'declined'
           OR (s.state = 'pending' AND r.state <> 'sent')
           OR (s.state = 'signed' AND COALESCE(act.field_values->>a.field_name, '') = '')
        LIMIT ${batch}
        FOR UPDATE OF a SKIP LOCKED)`,
  );
