// Each Request's history (ADR 3170): the events of it a client can subscribe to, as its
// webhooks carry them, kept in the statement that stores the change they report.
import * as t from 'io-ts';
import {
  clientEventOf,
  isRequestHistoryEvent,
  isTemplateEvent,
  WebhookPayload,
  type DomainEvent,
  type HistoryOrder,
} from '@esign/contracts';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { PageOf, PageRequest } from '../../ports/page.js';
import { FEED_START } from '../../application/feed-cursor.js';
import type { FeedFrom, FeedPage, FeedPosition, HistoryOf } from '../../ports/request-repository.js';

type Fragment = ReturnType<typeof sql.fragment>;

/**
 * The insert of the history entries among `events`, for a data-modifying CTE that writes
 * only where `when` holds (the change was stored); undefined when there are none. Entries
 * keep the order the events were emitted in. A template event is an entry of its Site's
 * feed alone, of no Request (ADR 3700).
 */
export const historyInsert = (
  events: readonly DomainEvent[],
  when: Fragment = sql.fragment`TRUE`,
): Fragment | undefined => {
  const entries = events.flatMap((e): { request_id: string | null; payload: WebhookPayload }[] =>
    isRequestHistoryEvent(e)
      ? [{ request_id: e.aggregate_id, payload: clientEventOf(e) }]
      : isTemplateEvent(e)
        ? [{ request_id: null, payload: clientEventOf(e) }]
        : [],
  );
  if (entries.length === 0) return undefined;
  return sql.fragment`
    INSERT INTO request_events (request_id, site_id, payload)
    SELECT (e->>'request_id')::uuid, (e->'payload'->>'site_id')::bigint, e->'payload'
    FROM jsonb_array_elements(${sql.jsonb(entries as unknown as Parameters<typeof sql.jsonb>[0])})
         WITH ORDINALITY AS x(e, n)
    WHERE ${when}
    ORDER BY n`;
};

const HistoryPage = t.type({ total: t.number, items: t.array(WebhookPayload) });

/**
 * One page of a Request's history, oldest or newest first, and how many entries it has in
 * all; with `types`, of those types only (ADR 3540). Or a template's: its Site's entries of
 * no Request that name it (ADR 3720), read by `request_events_by_template`.
 */
export const listHistory = async (
  q: Queryable,
  of: HistoryOf,
  page: PageRequest,
  order: HistoryOrder,
  types?: readonly string[],
): Promise<PageOf<WebhookPayload>> => {
  // Fixed text, not a value: the id is the order entries were recorded in.
  const by = order === 'desc' ? sql.fragment`id DESC` : sql.fragment`id`;
  const ofType =
    types === undefined
      ? sql.fragment`TRUE`
      : sql.fragment`payload->>'type' = ANY(${sql.array([...types], 'text')})`;
  const whose =
    'requestId' in of
      ? sql.fragment`request_id = ${of.requestId}`
      : sql.fragment`request_id IS NULL AND (payload->'data'->>'contract_id')::bigint = ${of.contractId}
          AND site_id = ${of.siteId}`;
  return db.one(
    q,
    HistoryPage,
    sql.unsafe`
      SELECT
        (SELECT count(*) FROM request_events WHERE ${whose} AND ${ofType})::int AS total,
        coalesce((
          SELECT json_agg(p.payload ORDER BY ${by}) FROM (
            SELECT id, payload FROM request_events WHERE ${whose} AND ${ofType}
            ORDER BY ${by} LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}) p
        ), '[]') AS items`,
  );
};

const FeedRow = t.type({ txid: t.string, id: t.string, payload: WebhookPayload });
/** A filtered feed's rows: the entries that match, then (`payload` null) the last entry read. */
const FilteredFeedRow = t.type({ txid: t.string, id: t.string, payload: t.union([WebhookPayload, t.null]) });

/** A row's place in the feed, without the rest of it. */
const positionOf = (row: FeedPosition | undefined): FeedPosition | undefined =>
  row === undefined ? undefined : { txid: row.txid, id: row.id };

/** One page of an oldest-first read; `nextAfter` passes `lastRead` when no more match. */
const pageOf = (
  rows: readonly t.TypeOf<typeof FeedRow>[],
  limit: number,
  after: FeedPosition,
  lastRead: FeedPosition | undefined,
): FeedPage => {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const next = hasMore || lastRead === undefined ? page.at(-1) : lastRead;
  return {
    entries: page.map((r) => r.payload),
    nextAfter: positionOf(next) ?? after,
    nextBefore: positionOf(page[0]),
    hasMore,
  };
};

/** Entries of transactions that ended before the oldest one still running began. */
const SETTLED = sql.fragment`txid < pg_snapshot_xmin(pg_current_snapshot())`;

/**
 * A Site's feed (ADR 3190): entries after `after` by (transaction, id), of transactions
 * that ended before the oldest one still running began. Every transaction that could
 * still add an entry has an id at or above that horizon, so it sorts after anything
 * answered here: a cursor never skips an entry that commits late. A rolled-back
 * transaction leaves no entry.
 *
 * With `types`, only those entries; when no more match, `nextAfter` is the last entry
 * below the horizon whatever its type, so the next poll does not read the others again.
 * That is safe for the same reason: every entry before it is stored for good.
 *
 * Newest first (`desc`), the same entries from the horizon down, before `before`: a look
 * back, not a poll, so `nextAfter` is the newest entry answered.
 */
export const siteFeed = async (
  q: Queryable,
  siteId: number,
  from: FeedFrom,
  limit: number,
  types?: readonly string[],
): Promise<FeedPage> => {
  // Without `types`, the Requests' entries: a template's are listed only when asked for (ADR 3700).
  const ofTypes =
    types === undefined
      ? sql.fragment`request_id IS NOT NULL`
      : sql.fragment`payload->>'type' = ANY(${sql.array([...types], 'text')})`;
  if (from.order === 'desc') {
    const below =
      from.before === undefined
        ? sql.fragment`TRUE`
        : sql.fragment`(txid, id) < (${from.before.txid}::xid8, ${from.before.id}::bigint)`;
    const rows = await db.any(
      q,
      FeedRow,
      sql.unsafe`
        SELECT txid::text AS txid, id::text AS id, payload FROM request_events
        WHERE site_id = ${siteId} AND ${below} AND ${SETTLED} AND ${ofTypes}
        ORDER BY txid DESC, id DESC
        LIMIT ${limit + 1}`,
    );
    const page = rows.slice(0, limit);
    return {
      entries: page.map((r) => r.payload),
      nextAfter: positionOf(page[0]) ?? from.before ?? FEED_START,
      nextBefore: positionOf(page.at(-1)),
      hasMore: rows.length > limit,
    };
  }
  const { after } = from;
  const since = sql.fragment`site_id = ${siteId} AND (txid, id) > (${after.txid}::xid8, ${after.id}::bigint)`;
  if (types === undefined) {
    const rows = await db.any(
      q,
      FeedRow,
      sql.unsafe`
        SELECT txid::text AS txid, id::text AS id, payload FROM request_events
        WHERE ${since} AND ${SETTLED} AND ${ofTypes}
        ORDER BY txid, id
        LIMIT ${limit + 1}`,
    );
    return pageOf(rows, limit, after, undefined);
  }
  const rows = await db.any(
    q,
    FilteredFeedRow,
    sql.unsafe`
      WITH horizon AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
      matched AS (
        SELECT txid, id, payload FROM request_events
        WHERE ${since} AND txid < (SELECT xmin FROM horizon) AND ${ofTypes}
        ORDER BY txid, id LIMIT ${limit + 1}),
      last_read AS (
        SELECT txid, id FROM request_events
        WHERE ${since} AND txid < (SELECT xmin FROM horizon)
        ORDER BY txid DESC, id DESC LIMIT 1)
      SELECT txid::text AS txid, id::text AS id, payload FROM matched
      UNION ALL
      SELECT txid::text, id::text, NULL FROM last_read`,
  );
  const lastRead = positionOf(rows.find((r) => r.payload === null));
  const matched = rows.flatMap((r) => (r.payload === null ? [] : [{ ...r, payload: r.payload }]));
  return pageOf(matched, limit, after, lastRead);
};
