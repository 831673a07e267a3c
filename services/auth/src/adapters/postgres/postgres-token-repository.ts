import * as t from 'io-ts';
import { isUuid, TokenOrigin } from '@esign/contracts';
import { db, enqueueEvents, sql, type DatabasePool } from '@esign/platform/database';
import type { TokenRecord } from '../../domain/model.js';
import type { TokenRepository } from '../../ports/token-repository.js';
import { maybe, NullableTimestamp, offsetOf, task, Timestamp } from './rows.js';
import { memberSitesOf, subjectColumns, toSubject } from './subject-rows.js';

const TokenRow = t.type({
  id: t.string,
  app_id: t.string,
  user_id: t.string,
  kid: t.string,
  name: t.union([t.string, t.null]),
  origin: TokenOrigin,
  created_at: Timestamp,
  expires_at: Timestamp,
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
  site_ids: t.union([t.array(t.number), t.null]),
  test_mode_only: t.boolean,
});
const toToken = (r: t.TypeOf<typeof TokenRow>): TokenRecord => ({
  id: r.id,
  appId: r.app_id,
  userId: r.user_id,
  kid: r.kid,
  name: r.name,
  origin: r.origin,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  siteIds: r.site_ids,
  testModeOnly: r.test_mode_only,
});
const tokenColumns = sql.fragment`
  t.id, t.app_id, t.user_id, t.kid, t.name, t.origin, t.created_at, t.expires_at, t.last_used_at, t.revoked_at,
  t.site_ids, t.test_mode_only`;

const SubjectRow = t.type({
  ...subjectColumns,
  app_unusable: t.boolean,
  site_ids: t.union([t.array(t.number), t.null]),
  test_mode_only: t.boolean,
  allowed_frame_origins: t.array(t.string),
});

/** The one INSERT of a token record; a token of the authorization-code grant names its grant. */
export const insertToken = (token: TokenRecord, grantId: string | null) =>
  sql.unsafe`
    INSERT INTO access_tokens (id, app_id, user_id, kid, name, origin, created_at, expires_at, site_ids, grant_id,
                               test_mode_only)
    VALUES (${token.id}, ${token.appId}, ${token.userId}, ${token.kid}, ${token.name}, ${token.origin},
            ${sql.timestamp(token.createdAt)}, ${sql.timestamp(token.expiresAt)},
            ${token.siteIds === null ? null : sql.array([...token.siteIds], 'int4')}, ${grantId},
            ${token.testModeOnly})`;

export const postgresTokenRepository = (pool: DatabasePool): TokenRepository => ({
  insert: (token) =>
    task(async () => {
      await db.exec(pool, insertToken(token, null));
    }),

  find: (id) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        TokenRow,
        sql.unsafe`SELECT ${tokenColumns} FROM access_tokens t WHERE t.id = ${id}`,
      );
      return row && toToken(row);
    }),

  list: (filter, page) =>
    task(async () => {
      if (
        (filter.userId !== undefined && !isUuid(filter.userId)) ||
        (filter.appId !== undefined && !isUuid(filter.appId))
      )
        return { items: [], total: 0 };
      const conditions = [
        ...(filter.userId === undefined ? [] : [sql.fragment`t.user_id = ${filter.userId}`]),
        ...(filter.appId === undefined ? [] : [sql.fragment`t.app_id = ${filter.appId}`]),
      ];
      const where = conditions.length === 0 ? sql.fragment`TRUE` : sql.join(conditions, sql.fragment` AND `);
      const [rows, count] = await Promise.all([
        db.any(
          pool,
          TokenRow,
          sql.unsafe`
          SELECT ${tokenColumns} FROM access_tokens t WHERE ${where}
          ORDER BY t.created_at DESC, t.id
          LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`,
        ),
        db.one(
          pool,
          t.type({ n: t.number }),
          sql.unsafe`SELECT count(*) AS n FROM access_tokens t WHERE ${where}`,
        ),
      ]);
      return { items: rows.map(toToken), total: count.n };
    }),

  revoke: (id, at, notices = []) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      return pool.transaction(async (tx) => {
        // Only a token not revoked yet is written, so the first revocation's time stays,
        // and only that one is told.
        const revoked = await db.maybeOne(
          tx,
          TokenRow,
          sql.unsafe`
          UPDATE access_tokens t SET revoked_at = ${sql.timestamp(at)}
          WHERE t.id = ${id} AND t.revoked_at IS NULL
          RETURNING ${tokenColumns}`,
        );
        if (revoked !== undefined) {
          if (notices.length > 0) await enqueueEvents(tx, notices);
          return toToken(revoked);
        }
        const row = await db.maybeOne(
          tx,
          TokenRow,
          sql.unsafe`SELECT ${tokenColumns} FROM access_tokens t WHERE t.id = ${id}`,
        );
        return row && toToken(row);
      });
    }),

  introspectionSubject: (id) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        SubjectRow,
        sql.unsafe`
        SELECT t.id, t.user_id, t.expires_at, t.revoked_at, t.site_ids, t.test_mode_only,
               u.email AS user_email, u.disabled_at IS NOT NULL AS user_disabled,
               (a.deleted_at IS NOT NULL OR a.disabled_at IS NOT NULL) AS app_unusable,
               acc.api_access,
               k.revoked_at IS NOT NULL AS key_revoked, a.allowed_frame_origins,
               ${memberSitesOf('t')}
        FROM access_tokens t
        JOIN users u ON u.id = t.user_id
        JOIN accounts acc ON acc.id = u.account_id
        JOIN developer_apps a ON a.id = t.app_id
        JOIN signing_keys k ON k.kid = t.kid
        WHERE t.id = ${id}`,
      );
      return (
        row && {
          ...toSubject(row, row.app_unusable),
          siteLimit: row.site_ids,
          testModeOnly: row.test_mode_only,
          frameOrigins: row.allowed_frame_origins,
        }
      );
    }),
});
