import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import type { CreateRequestBody } from '@esign/contracts';
import { db, enqueueEvents, msUntil, sql, type DatabasePool, type Queryable } from '@esign/platform/database';
import type { BulkShared } from '../../domain/bulk-send.js';
import type { BulkSendRecord, BulkSendStore, BulkSendWriter } from '../../ports/bulk-send-store.js';
import { postgresBulkSendList } from './postgres-bulk-send-list.js';
import { task } from './task.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

const BulkRow = t.type({
  id: t.string,
  site_id: t.number,
  site_name: t.string,
  caller_sub: t.string,
  token_id: t.string,
  test_mode_only: t.boolean,
  shared: t.UnknownRecord,
  send: t.boolean,
  test_mode: t.boolean,
  rows_total: t.number,
  state: t.keyof({ running: null, completed: null }),
  created_at: t.string,
  completed_at: nullable(t.string),
  cancelled_at: nullable(t.string),
});
const bulkColumns = sql.fragment`b.id, b.site_id, b.site_name, b.caller_sub, b.token_id, b.test_mode_only, b.shared, b.send,
  b.test_mode, b.rows_total, b.state, b.created_at, b.completed_at, b.cancelled_at`;

// The shared part and row bodies were decoded before they were written: read back as written.
const toBulk = (r: t.TypeOf<typeof BulkRow>): BulkSendRecord => ({
  id: r.id,
  siteId: r.site_id,
  siteName: r.site_name,
  callerSub: r.caller_sub,
  tokenId: r.token_id,
  testModeOnly: r.test_mode_only,
  shared: r.shared as unknown as BulkShared,
  send: r.send,
  testMode: r.test_mode,
  rowsTotal: r.rows_total,
  state: r.state,
  createdAt: r.created_at,
  completedAt: r.completed_at,
  cancelledAt: r.cancelled_at,
});

const RowRow = t.type({
  row_number: t.number,
  status: t.keyof({ pending: null, created: null, sent: null, failed: null, cancelled: null }),
  request_id: nullable(t.string),
  errors: t.array(t.type({ path: t.string, message: t.string })),
});

const json = (value: unknown) => sql.jsonb(value as Parameters<typeof sql.jsonb>[0]);

/** The bulk send and every row, in the caller's transaction (ADR 2201). */
export const postgresBulkSendWriter = (tx: Queryable): BulkSendWriter => ({
  insert: (bulk, rows) =>
    task(async () => {
      await db.exec(
        tx,
        sql.unsafe`
          INSERT INTO bulk_sends (id, site_id, site_name, caller_sub, token_id, test_mode_only, shared, send,
                                  test_mode, rows_total, state, created_at)
          VALUES (${bulk.id}, ${bulk.siteId}, ${bulk.siteName}, ${bulk.callerSub}, ${bulk.tokenId}, ${bulk.testModeOnly},
                  ${json(bulk.shared)}, ${bulk.send}, ${bulk.testMode}, ${bulk.rowsTotal}, 'running',
                  ${bulk.createdAt})`,
      );
      await db.exec(
        tx,
        sql.unsafe`
          INSERT INTO bulk_send_rows (bulk_id, row_number, body, status, errors, updated_at)
          SELECT ${bulk.id}, r.row_number, r.body::jsonb, r.status, r.errors::jsonb, ${bulk.createdAt}
          FROM ${sql.unnest(
            rows.map((r) => [
              r.row,
              r.body === null ? null : JSON.stringify(r.body),
              r.status,
              JSON.stringify(r.errors),
            ]),
            ['int4', 'text', 'text', 'text'],
          )} AS r(row_number, body, status, errors)`,
      );
    }),
});

/** `bulk_sends` and `bulk_send_rows` (ADRs 2201, 3440, 3450). */
export const postgresBulkSendStore = (pool: DatabasePool): BulkSendStore => ({
  find: (id, siteIds) =>
    task(async () => {
      if (!UUID.test(id) || siteIds.length === 0) return O.none;
      const bulk = await db.maybeOne(
        pool,
        BulkRow,
        sql.unsafe`SELECT ${bulkColumns} FROM bulk_sends b
                   WHERE b.id = ${id} AND b.site_id = ANY(${sql.array([...siteIds], 'int8')})`,
      );
      if (bulk === undefined) return O.none;
      const rows = await db.any(
        pool,
        RowRow,
        sql.unsafe`SELECT row_number, status, request_id, errors FROM bulk_send_rows
                   WHERE bulk_id = ${id} ORDER BY row_number`,
      );
      return O.some({
        bulk: toBulk(bulk),
        rows: rows.map((r) => ({
          row: r.row_number,
          status: r.status,
          requestId: r.request_id,
          errors: r.errors,
        })),
      });
    }),

  list: postgresBulkSendList(pool),

  cancel: (id, siteIds, at) =>
    task(async () => {
      if (!UUID.test(id) || siteIds.length === 0) return O.none;
      return pool.transaction(async (tx) => {
        const bulk = await db.maybeOne(
          tx,
          BulkRow,
          sql.unsafe`SELECT ${bulkColumns} FROM bulk_sends b
                     WHERE b.id = ${id} AND b.site_id = ANY(${sql.array([...siteIds], 'int8')}) FOR UPDATE`,
        );
        if (bulk === undefined) return O.none;
        if (bulk.cancelled_at !== null) return O.some({ bulk: toBulk(bulk), outcome: 'cancelled' as const });
        if (bulk.state === 'completed') return O.some({ bulk: toBulk(bulk), outcome: 'completed' as const });
        await db.exec(tx, sql.unsafe`UPDATE bulk_sends SET cancelled_at = ${at} WHERE id = ${id}`);
        // A row under a lease is a worker's (being made, or paced): it decides (ADR 3450).
        await db.exec(
          tx,
          sql.unsafe`
            UPDATE bulk_send_rows SET status = 'cancelled', updated_at = ${at}
            WHERE bulk_id = ${id} AND status = 'pending' AND (lease_until IS NULL OR lease_until <= now())`,
        );
        return O.some({ bulk: toBulk({ ...bulk, cancelled_at: at }), outcome: 'cancelled' as const });
      });
    }),

  claim: (limit, leaseMs) =>
    task(async () => {
      const claimed = await db.any(
        pool,
        t.type({ bulk_id: t.string, row_number: t.number, body: t.UnknownRecord }),
        sql.unsafe`
          UPDATE bulk_send_rows r
          SET lease_until = now() + ${leaseMs} * interval '1 millisecond'
          FROM (
            SELECT bulk_id, row_number FROM bulk_send_rows
            WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= now())
            ORDER BY bulk_id, row_number
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          ) due
          WHERE r.bulk_id = due.bulk_id AND r.row_number = due.row_number
          RETURNING r.bulk_id, r.row_number, r.body`,
      );
      if (claimed.length === 0) return [];
      const ids = [...new Set(claimed.map((c) => c.bulk_id))];
      const bulks = await db.any(
        pool,
        BulkRow,
        sql.unsafe`SELECT ${bulkColumns} FROM bulk_sends b WHERE b.id = ANY(${sql.array(ids, 'uuid')})`,
      );
      const byId = new Map(bulks.map((b) => [b.id, toBulk(b)]));
      return claimed
        .sort((a, b) =>
          a.bulk_id === b.bulk_id ? a.row_number - b.row_number : a.bulk_id < b.bulk_id ? -1 : 1,
        )
        .map((c) => ({
          bulk: byId.get(c.bulk_id)!,
          row: c.row_number,
          body: c.body as unknown as CreateRequestBody,
        }));
    }),

  // Only after a run that settled nothing: the pending rows of the running bulk sends, a
  // thousand at most each, through their partial index (ADR 2910).
  nextDueInMs: () =>
    task(() =>
      msUntil(
        pool,
        sql.fragment`(SELECT min(coalesce(lease_until, now())) FROM bulk_send_rows WHERE status = 'pending')`,
      ),
    ),

  release: (bulkId, row, afterMs) =>
    task(async () => {
      await db.exec(
        pool,
        sql.unsafe`
          UPDATE bulk_send_rows SET lease_until = now() + ${afterMs} * interval '1 millisecond'
          WHERE bulk_id = ${bulkId} AND row_number = ${row} AND status = 'pending'`,
      );
    }),

  settle: (bulkId, row, outcome, at) =>
    task(async () => {
      await db.exec(
        pool,
        sql.unsafe`
          UPDATE bulk_send_rows
          SET status = ${outcome.status}, request_id = ${outcome.requestId}, errors = ${json(outcome.errors)},
              lease_until = NULL, updated_at = ${at}
          WHERE bulk_id = ${bulkId} AND row_number = ${row} AND status = 'pending'`,
      );
    }),

  completeIfDone: (bulkId, at, event) =>
    task(() =>
      pool.transaction(async (tx) => {
        const counts = await db.maybeOne(
          tx,
          t.type({
            total: t.number,
            created: t.number,
            sent: t.number,
            failed: t.number,
            cancelled: t.number,
            pending: t.number,
            cancelled_at: nullable(t.string),
          }),
          sql.unsafe`
            WITH bulk AS (
              SELECT id, cancelled_at FROM bulk_sends WHERE id = ${bulkId} AND state = 'running' FOR UPDATE
            )
            SELECT count(*)::int AS total,
                   count(*) FILTER (WHERE r.request_id IS NOT NULL)::int AS created,
                   count(*) FILTER (WHERE r.status = 'sent')::int AS sent,
                   count(*) FILTER (WHERE r.status = 'failed')::int AS failed,
                   count(*) FILTER (WHERE r.status = 'cancelled')::int AS cancelled,
                   count(*) FILTER (WHERE r.status = 'pending')::int AS pending,
                   min(bulk.cancelled_at) AS cancelled_at
            FROM bulk JOIN bulk_send_rows r ON r.bulk_id = bulk.id`,
        );
        if (counts === undefined || counts.total === 0 || counts.pending > 0) return false;
        await db.exec(
          tx,
          sql.unsafe`UPDATE bulk_sends SET state = 'completed', completed_at = ${at} WHERE id = ${bulkId}`,
        );
        await enqueueEvents(tx, [event({ ...counts, cancelledAt: counts.cancelled_at })]);
        return true;
      }),
    ),
});
