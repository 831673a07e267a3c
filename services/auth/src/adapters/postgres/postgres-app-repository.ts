import { isUuid } from '@esign/contracts';
import * as t from 'io-ts';
import { db, enqueueEvents, sql, type DatabasePool } from '@esign/platform/database';
import type { DeveloperApp } from '../../domain/model.js';
import type { AppRepository } from '../../ports/app-repository.js';
import { Bytes, maybe, NullableTimestamp, offsetOf, task, Timestamp } from './rows.js';

const AppRow = t.type({
  id: t.string,
  user_id: t.string,
  name: t.string,
  client_secret_created_at: NullableTimestamp,
  created_at: Timestamp,
  disabled_at: NullableTimestamp,
  callback_url: t.union([t.string, t.null]),
});
const toApp = (r: t.TypeOf<typeof AppRow>): DeveloperApp => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  clientSecretCreatedAt: r.client_secret_created_at,
  createdAt: r.created_at,
  disabledAt: r.disabled_at,
  callbackUrl: r.callback_url,
});
const appColumns = sql.fragment`
  a.id, a.user_id, a.name, a.client_secret_created_at, a.created_at, a.disabled_at, a.callback_url`;

const ClientRow = t.intersection([
  AppRow,
  t.type({ client_secret_hash: t.union([Bytes, t.null]), owner_disabled: t.boolean, api_access: t.boolean }),
]);

export const postgresAppRepository = (pool: DatabasePool): AppRepository => ({
  create: (app) =>
    task(async () =>
      toApp(
        await db.one(
          pool,
          AppRow,
          sql.unsafe`
          INSERT INTO developer_apps AS a (id, user_id, name, created_at, callback_url)
          VALUES (${app.id}, ${app.userId}, ${app.name}, ${sql.timestamp(app.createdAt)}, ${app.callbackUrl})
          RETURNING ${appColumns}`,
        ),
      ),
    ),

  find: (id) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        AppRow,
        sql.unsafe`SELECT ${appColumns} FROM developer_apps a WHERE a.id = ${id} AND a.deleted_at IS NULL`,
      );
      return row && toApp(row);
    }),

  findClient: (id) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        ClientRow,
        sql.unsafe`
        SELECT ${appColumns}, a.client_secret_hash,
               u.disabled_at IS NOT NULL AS owner_disabled, acc.api_access
        FROM developer_apps a
        JOIN users u ON u.id = a.user_id
        JOIN accounts acc ON acc.id = u.account_id
        WHERE a.id = ${id} AND a.deleted_at IS NULL`,
      );
      return (
        row && {
          app: toApp(row),
          secretFingerprint: row.client_secret_hash,
          ownerDisabled: row.owner_disabled,
          apiAccess: row.api_access,
        }
      );
    }),

  listByUser: (userId, page) =>
    task(async () => {
      if (!isUuid(userId)) return { items: [], total: 0 };
      const rows = await db.any(
        pool,
        t.intersection([AppRow, t.type({ total: t.number })]),
        sql.unsafe`
        SELECT ${appColumns}, count(*) OVER () AS total
        FROM developer_apps a
        WHERE a.user_id = ${userId} AND a.deleted_at IS NULL
        ORDER BY a.created_at DESC, a.id
        LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`,
      );
      const total =
        rows[0]?.total ??
        (
          await db.one(
            pool,
            t.type({ n: t.number }),
            sql.unsafe`SELECT count(*) AS n FROM developer_apps WHERE user_id = ${userId} AND deleted_at IS NULL`,
          )
        ).n;
      return { items: rows.map(toApp), total };
    }),

  list: (filter) =>
    task(async () => {
      if (filter.userId !== undefined && !isUuid(filter.userId)) return [];
      const where =
        filter.userId === undefined ? sql.fragment`TRUE` : sql.fragment`a.user_id = ${filter.userId}`;
      return (
        await db.any(
          pool,
          AppRow,
          sql.unsafe`
          SELECT ${appColumns} FROM developer_apps a
          WHERE ${where} AND a.deleted_at IS NULL ORDER BY a.created_at, a.id`,
        )
      ).map(toApp);
    }),

  setClientSecret: (id, fingerprint, at) =>
    task(async () => {
      await db.exec(
        pool,
        sql.unsafe`
        UPDATE developer_apps
        SET client_secret_hash = ${fingerprint === null ? null : sql.binary(Buffer.from(fingerprint))},
            client_secret_created_at = ${fingerprint === null ? null : sql.timestamp(at)}
        WHERE id = ${id} AND deleted_at IS NULL`,
      );
    }),

  setCallbackUrl: (id, callbackUrl) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        AppRow,
        sql.unsafe`
        UPDATE developer_apps a SET callback_url = ${callbackUrl}
        WHERE a.id = ${id} AND a.deleted_at IS NULL
        RETURNING ${appColumns}`,
      );
      return row && toApp(row);
    }),

  setDisabled: (id, disabledAt, notices = []) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      return pool.transaction(async (tx) => {
        // Only a change writes, and only a change is told.
        const changed = await db.maybeOne(
          tx,
          AppRow,
          sql.unsafe`
          UPDATE developer_apps a SET disabled_at = ${disabledAt === null ? null : sql.timestamp(disabledAt)}
          WHERE a.id = ${id} AND a.deleted_at IS NULL AND (a.disabled_at IS NULL) = ${disabledAt !== null}
          RETURNING ${appColumns}`,
        );
        if (changed !== undefined) {
          if (notices.length > 0) await enqueueEvents(tx, notices);
          return toApp(changed);
        }
        const row = await db.maybeOne(
          tx,
          AppRow,
          sql.unsafe`SELECT ${appColumns} FROM developer_apps a WHERE a.id = ${id} AND a.deleted_at IS NULL`,
        );
        return row && toApp(row);
      });
    }),

  remove: (id, at, notices = []) =>
    task(async () => {
      await pool.transaction(async (tx) => {
        const deleted = await db.exec(
          tx,
          sql.unsafe`
          UPDATE developer_apps SET deleted_at = ${sql.timestamp(at)}, client_secret_hash = NULL
          WHERE id = ${id} AND deleted_at IS NULL`,
        );
        if (deleted > 0 && notices.length > 0) await enqueueEvents(tx, notices);
        await db.exec(
          tx,
          sql.unsafe`UPDATE access_tokens SET revoked_at = ${sql.timestamp(at)} WHERE app_id = ${id} AND revoked_at IS NULL`,
        );
      });
    }),
});
