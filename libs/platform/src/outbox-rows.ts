/**
 * The outbox relay's reads of its table (outbox.ts), each inside the transaction of a
 * round, after `orderedScanOnly`.
 */
import * as t from 'io-ts';
import { sql, db, type Queryable } from './db.js';
import type { PendingAfterRound } from './outbox-sleep.js';

const PendingRow = t.type({
  seq: t.number,
  id: t.string,
  type: t.string,
  envelope: t.unknown,
  attempts: t.number,
});
export type PendingRow = t.TypeOf<typeof PendingRow>;

/**
 * The drain reads due rows through `outbox_pending` in `seq` order, and only that way (ADR
 * 2810). Each stamp leaves the row's old version in that partial index until a vacuum; a
 * plain index scan marks such entries dead as it passes them, so later drains skip them
 * without reading the table. A bitmap scan marks nothing, and a sequential scan reads every
 * published row: with statistics that misjudge how many rows are pending, the planner picks
 * either, and each poll then reads every row stamped since the last vacuum (3–4 ms of
 * Postgres per poll in the bench, growing with the table).
 */
export const orderedScanOnly = (tx: Queryable) =>
  tx.query(sql.unsafe`
    SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`);

/** Up to `limit` due rows, oldest first, locked; rows another relay holds are skipped. */
export const claimDueRows = (tx: Queryable, limit: number): Promise<PendingRow[]> =>
  db.any(
    tx,
    PendingRow,
    sql.unsafe`
      SELECT seq, id::text AS id, type, envelope, attempts FROM outbox
      WHERE published_at IS NULL AND next_attempt_at <= now()
      ORDER BY seq
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`,
  );

const Pending = t.type({ due_in_ms: t.union([t.number, t.null]), others_due: t.boolean });

/**
 * What is still pending once the round has stamped its own rows (ADR 2890), on the
 * database's clock: rows already due are another relay's, locked by its drain.
 */
export const pendingAfterRound = async (tx: Queryable): Promise<PendingAfterRound> => {
  const row = await db.one(
    tx,
    Pending,
    sql.unsafe`
      SELECT (extract(epoch FROM min(next_attempt_at) FILTER (WHERE next_attempt_at > now()) - now())
               * 1000)::float8 AS due_in_ms,
             coalesce(bool_or(next_attempt_at <= now()), false) AS others_due
      FROM outbox WHERE published_at IS NULL`,
  );
  return { dueInMs: row.due_in_ms, othersDue: row.others_due };
};
