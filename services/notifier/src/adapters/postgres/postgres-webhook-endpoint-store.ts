import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { isWebhookEventType } from '@esign/contracts';
import type { TextSealer } from '@esign/platform';
import { db, sql, type DatabasePool, type Queryable } from '@esign/platform/database';
import type { WebhookEndpoint } from '../../domain/webhook-endpoint.js';
import type { TooManyEndpoints, WebhookEndpointStore } from '../../ports/webhook-endpoint-store.js';
import {
  AttemptRow,
  DeliveryRow,
  deliveryColumns,
  endpointColumns,
  endpointOfRow,
  EndpointRow,
  sealSecret,
} from './webhook-rows.js';

const Count = t.type({ count: t.number });
const SiteTypesRow = t.type({ site_id: t.number, event_types: t.array(t.string) });

/** Key of the advisory lock that serialises endpoint creation per site (the per-site limit). */
const CREATE_LOCK = 0x77686b; // "whk"

const textArray = (values: readonly string[]) => sql.array([...values], 'text');

/** The secrets of `e` as the row keeps them: sealed. */
const sealedSecrets = (sealer: TextSealer, e: WebhookEndpoint) => ({
  secret: sealSecret(sealer, e.id, e.secret),
  previous: e.previousSecret === null ? null : sealSecret(sealer, e.id, e.previousSecret),
});

/** Writes every mutable column of `endpoint`. */
const writeEndpoint = (tx: Queryable, sealer: TextSealer, e: WebhookEndpoint) => {
  const sealed = sealedSecrets(sealer, e);
  return tx.query(sql.unsafe`
    UPDATE webhook_endpoints
    SET site_name = ${e.siteName}, url = ${e.url}, description = ${e.description},
        event_types = ${textArray(e.eventTypes)}, enabled = ${e.enabled},
        disabled_reason = ${e.disabledReason}, alert_email = ${e.alertEmail}, secret = ${sealed.secret},
        previous_secret = ${sealed.previous},
        previous_secret_expires_at = ${e.previousSecretExpiresAt}::timestamptz,
        failing_since = ${e.failingSince}::timestamptz, updated_at = ${e.updatedAt}::timestamptz
    WHERE id = ${e.id}`);
};

/** Deliveries still waiting for an endpoint that was turned off will not be sent: say so. */
export const cancelPending = (tx: Queryable, endpointId: string, reason: string) =>
  tx.query(sql.unsafe`
    UPDATE webhook_deliveries
    SET status = 'failed', last_error = ${reason}, next_attempt_at = NULL, settled_at = now()
    WHERE endpoint_id = ${endpointId} AND status = 'pending'`);

type UpdateResult<Err> =
  | { readonly _tag: 'Missing' }
  | { readonly _tag: 'Refused'; readonly error: Err }
  | { readonly _tag: 'Updated'; readonly endpoint: WebhookEndpoint };

/**
 * Seals the secrets of rows written before sealing began (ADR 1312): run at start-up,
 * in batches, each row locked and skipped if another replica has it; answers how many
 * rows it sealed. Reads open both forms meanwhile.
 */
export const sealLegacyWebhookSecrets = async (pool: DatabasePool, sealer: TextSealer): Promise<number> => {
  const LegacyRow = t.type({ id: t.string, secret: t.string, previous_secret: t.union([t.string, t.null]) });
  let sealed = 0;
  for (;;) {
    const batch = await pool.transaction(async (tx) => {
      const rows = await db.any(
        tx,
        LegacyRow,
        sql.unsafe`
          SELECT id, secret, previous_secret FROM webhook_endpoints
          WHERE secret NOT LIKE 'sealed:%' OR previous_secret NOT LIKE 'sealed:%'
          LIMIT 200 FOR UPDATE SKIP LOCKED`,
      );
      for (const row of rows) {
        const seal = (value: string) => (sealer.isSealed(value) ? value : sealSecret(sealer, row.id, value));
        await tx.query(sql.unsafe`
          UPDATE webhook_endpoints
          SET secret = ${seal(row.secret)},
              previous_secret = ${row.previous_secret === null ? null : seal(row.previous_secret)}
          WHERE id = ${row.id}`);
      }
      return rows.length;
    });
    sealed += batch;
    if (batch === 0) return sealed;
  }
};

export const postgresWebhookEndpointStore = (
  pool: DatabasePool,
  sealer: TextSealer,
): WebhookEndpointStore => ({
  create: (endpoint, limit) =>
    pipe(
      TE.rightTask(() =>
        pool.transaction(async (tx): Promise<E.Either<TooManyEndpoints, void>> => {
          await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${CREATE_LOCK}, ${endpoint.siteId})`);
          const { count } = await db.one(
            tx,
            Count,
            sql.unsafe`SELECT count(*)::int AS count FROM webhook_endpoints WHERE site_id = ${endpoint.siteId}`,
          );
          if (count >= limit) return E.left({ _tag: 'TooManyEndpoints', limit });
          const e = endpoint;
          const sealed = sealedSecrets(sealer, e);
          await tx.query(sql.unsafe`
            INSERT INTO webhook_endpoints
              (id, site_id, site_name, url, description, event_types, enabled, disabled_reason, alert_email,
               secret, previous_secret, previous_secret_expires_at, failing_since, created_at, updated_at)
            VALUES (${e.id}, ${e.siteId}, ${e.siteName}, ${e.url}, ${e.description}, ${textArray(e.eventTypes)},
                    ${e.enabled}, ${e.disabledReason}, ${e.alertEmail}, ${sealed.secret}, ${sealed.previous},
                    ${e.previousSecretExpiresAt}::timestamptz, ${e.failingSince}::timestamptz,
                    ${e.createdAt}::timestamptz, ${e.updatedAt}::timestamptz)`);
          return E.right(undefined);
        }),
      ),
      TE.chainEitherK((created) => created),
    ),
  sitesWithEndpoints: () =>
    TE.rightTask(async () =>
      (
        await db.any(
          pool,
          SiteTypesRow,
          sql.unsafe`SELECT site_id, array_agg(DISTINCT t.type ORDER BY t.type) AS event_types
                     FROM webhook_endpoints CROSS JOIN LATERAL unnest(event_types) AS t(type)
                     GROUP BY site_id ORDER BY site_id`,
        )
      ).map((r) => ({ siteId: r.site_id, eventTypes: r.event_types.filter(isWebhookEventType) })),
    ),
  list: (siteId, page) =>
    TE.rightTask(async () => {
      const [rows, { count }] = await Promise.all([
        db.any(
          pool,
          EndpointRow,
          sql.unsafe`SELECT ${endpointColumns} FROM webhook_endpoints WHERE site_id = ${siteId}
                     ORDER BY created_at, id LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
        ),
        db.one(
          pool,
          Count,
          sql.unsafe`SELECT count(*)::int AS count FROM webhook_endpoints WHERE site_id = ${siteId}`,
        ),
      ]);
      return { items: rows.map(endpointOfRow(sealer)), total: count };
    }),
  get: (siteId, id) =>
    TE.rightTask(async () => {
      const row = await db.maybeOne(
        pool,
        EndpointRow,
        sql.unsafe`SELECT ${endpointColumns} FROM webhook_endpoints WHERE site_id = ${siteId} AND id = ${id}`,
      );
      return O.map(endpointOfRow(sealer))(O.fromNullable(row));
    }),
  update: <Err>(
    siteId: number,
    id: string,
    change: (current: WebhookEndpoint) => E.Either<Err, WebhookEndpoint>,
  ) =>
    pipe(
      TE.rightTask(() =>
        pool.transaction(async (tx): Promise<UpdateResult<Err>> => {
          const row = await db.maybeOne(
            tx,
            EndpointRow,
            sql.unsafe`SELECT ${endpointColumns} FROM webhook_endpoints
                       WHERE site_id = ${siteId} AND id = ${id} FOR NO KEY UPDATE`,
          );
          if (row === undefined) return { _tag: 'Missing' };
          const current = endpointOfRow(sealer)(row);
          const changed = change(current);
          if (E.isLeft(changed)) return { _tag: 'Refused', error: changed.left };
          await writeEndpoint(tx, sealer, changed.right);
          if (current.enabled && !changed.right.enabled) await cancelPending(tx, id, 'endpoint disabled');
          return { _tag: 'Updated', endpoint: changed.right };
        }),
      ),
      TE.chainEitherKW((result): E.Either<Err, O.Option<WebhookEndpoint>> => {
        switch (result._tag) {
          case 'Missing':
            return E.right(O.none);
          case 'Refused':
            return E.left(result.error);
          case 'Updated':
            return E.right(O.some(result.endpoint));
        }
      }),
    ),
  remove: (siteId, id) =>
    TE.rightTask(
      async () =>
        (await db.exec(
          pool,
          sql.unsafe`DELETE FROM webhook_endpoints WHERE site_id = ${siteId} AND id = ${id}`,
        )) === 1,
    ),
  listDeliveries: (siteId, endpointId, filter, page) =>
    TE.rightTask(async () => {
      const where = sql.fragment`site_id = ${siteId} AND endpoint_id = ${endpointId}
        ${filter.status === undefined ? sql.fragment`` : sql.fragment`AND status = ${filter.status}`}`;
      const [items, { count }] = await Promise.all([
        db.any(
          pool,
          DeliveryRow,
          sql.unsafe`SELECT ${deliveryColumns} FROM webhook_deliveries WHERE ${where}
                     ORDER BY created_at DESC, id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
        ),
        db.one(pool, Count, sql.unsafe`SELECT count(*)::int AS count FROM webhook_deliveries WHERE ${where}`),
      ]);
      return { items, total: count };
    }),
  getDelivery: (siteId, endpointId, deliveryId) =>
    TE.rightTask(async () => {
      const delivery = await db.maybeOne(
        pool,
        DeliveryRow,
        sql.unsafe`SELECT ${deliveryColumns} FROM webhook_deliveries
                   WHERE site_id = ${siteId} AND endpoint_id = ${endpointId} AND id = ${deliveryId}`,
      );
      if (delivery === undefined) return O.none;
      const attempts = await db.any(
        pool,
        AttemptRow,
        sql.unsafe`SELECT attempt, started_at, finished_at, outcome, response_status, response_excerpt, error, duration_ms
                   FROM webhook_delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt`,
      );
      return O.some({ ...delivery, attempt_history: attempts });
    }),
});
