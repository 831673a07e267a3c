import { db, sql, type Queryable } from '@esign/platform/database';

/**
 * Deletes Idempotency-Key answers past their retention, a batch at a time so the
 * delete never holds many locks. Answers how many went.
 */
export const purgeIdempotencyKeys = async (
  q: Queryable,
  retentionHours: number,
  batch = 1000,
): Promise<number> => {
  let total = 0;
  for (;;) {
    const deleted = await db.exec(
      q,
      sql.unsafe`
        DELETE FROM idempotency_keys WHERE (site_id, key) IN (
          SELECT site_id, key FROM idempotency_keys
          WHERE created_at <= now() - make_interval(hours => ${retentionHours})
          LIMIT ${batch})`,
    );
    total += deleted;
    if (deleted < batch) return total;
  }
};
