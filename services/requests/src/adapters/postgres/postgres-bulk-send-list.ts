import * as t from 'io-ts';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import type { BulkSendStore, ListedBulkSend } from '../../ports/bulk-send-store.js';
import { Count } from './rows.js';
import { task } from './task.js';

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

const ListedRow = t.type({
  id: t.string,
  site_id: t.number,
  state: t.keyof({ running: null, completed: null }),
  send: t.boolean,
  test_mode: t.boolean,
  rows_total: t.number,
  created_at: t.string,
  completed_at: nullable(t.string),
  cancelled_at: nullable(t.string),
  created: t.number,
  sent: t.number,
  failed: t.number,
  cancelled: t.number,
  contracts: t.array(t.type({ id: t.number, name: t.string })),
});

const toListed = (r: t.TypeOf<typeof ListedRow>): ListedBulkSend => ({
  bulk: {
    id: r.id,
    siteId: r.site_id,
    state: r.state,
    send: r.send,
    testMode: r.test_mode,
    rowsTotal: r.rows_total,
    createdAt: r.created_at,
    completedAt: r.completed_at,
    cancelledAt: r.cancelled_at,
  },
  progress: { created: r.created, sent: r.sent, failed: r.failed, cancelled: r.cancelled },
  contracts: r.contracts,
});

/** A Site's bulk sends, a page at a time (ADR 3440), with each one's counts and templates. */
export const postgresBulkSendList =
  (pool: DatabasePool): BulkSendStore['list'] =>
  (siteId, page, { state, contractId, createdFrom, createdBefore }) =>
    task(async () => {
      // `bulk_sends_by_site` (a creation interval is a range of it); each page's counts over its own rows (`bulk_send_rows`' key), as
      // `completeIfDone` counts them, and its templates by name in the order it named them.
      const where = sql.fragment`b.site_id = ${siteId}
      ${state === undefined ? sql.fragment`` : sql.fragment`AND b.state = ${state}`}
      ${contractId === undefined ? sql.fragment`` : sql.fragment`AND b.shared->'contracts' @> jsonb_build_array(${contractId}::bigint)`}
      ${createdFrom === undefined ? sql.fragment`` : sql.fragment`AND b.created_at >= ${createdFrom}::timestamptz`}
      ${createdBefore === undefined ? sql.fragment`` : sql.fragment`AND b.created_at < ${createdBefore}::timestamptz`}`;
      const [rows, count] = await Promise.all([
        db.any(
          pool,
          ListedRow,
          sql.unsafe`
          SELECT b.id, b.site_id, b.state, b.send, b.test_mode, b.rows_total, b.created_at, b.completed_at,
                 b.cancelled_at, n.created, n.sent, n.failed, n.cancelled,
                 (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY x.n), '[]')
                  FROM jsonb_array_elements_text(b.shared->'contracts') WITH ORDINALITY AS x(id, n)
                  JOIN contract_templates c ON c.id = x.id::bigint) AS contracts
          FROM bulk_sends b
          CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE r.request_id IS NOT NULL)::int AS created,
                   count(*) FILTER (WHERE r.status = 'sent')::int AS sent,
                   count(*) FILTER (WHERE r.status = 'failed')::int AS failed,
                   count(*) FILTER (WHERE r.status = 'cancelled')::int AS cancelled
            FROM bulk_send_rows r WHERE r.bulk_id = b.id) n
          WHERE ${where}
          ORDER BY b.created_at DESC, b.id DESC
          LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
        ),
        db.one(pool, Count, sql.unsafe`SELECT count(*) AS total FROM bulk_sends b WHERE ${where}`),
      ]);
      return { items: rows.map(toListed), total: count.total };
    });
