import * as t from 'io-ts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { TextSealer } from '@esign/platform';
import { db, msUntil, sql, type DatabasePool } from '@esign/platform/database';
import { claimEventStatement } from '@esign/platform/messaging';
import { nullable, WebhookEventType } from '@esign/contracts';
import type { EndpointDisabledAlert } from '../../domain/webhook-alert.js';
import type { NextStep } from '../../domain/webhook-delivery.js';
import type {
  AttemptRecord,
  AttemptRecorded,
  ClaimedAlert,
  ClaimedDelivery,
  WebhookDeliveryStore,
} from '../../ports/webhook-delivery-store.js';
import { cancelPending } from './postgres-webhook-endpoint-store.js';
import { openSecret } from './webhook-rows.js';

const ClaimedRow = t.type({
  id: t.string,
  event_id: t.string,
  event_type: WebhookEventType,
  payload: t.string,
  attempts: t.number,
  created_at: t.string,
  endpoint_id: t.string,
  url: t.string,
  enabled: t.boolean,
  secret: t.string,
  previous_secret: nullable(t.string),
  previous_secret_expires_at: nullable(t.string),
});

const HealthRow = t.type({
  id: t.string,
  enabled: t.boolean,
  failing_since: nullable(t.string),
  site_id: t.number,
  site_name: t.string,
  url: t.string,
  alert_email: t.string,
});

const AlertFacts = t.type({
  endpointId: t.string,
  siteId: t.number,
  siteName: t.string,
  url: t.string,
  failingSince: t.string,
  disabledAt: t.string,
  lastError: t.string,
});

const AlertRow = t.type({ id: t.string, recipient: t.string, attempts: t.number, facts: AlertFacts });

const Id = t.type({ id: t.string });

const outcomeOf = (step: NextStep) =>
  step._tag === 'Delivered' ? 'delivered' : step._tag === 'Retry' ? 'retry' : 'failed';

const lease = (ms: number) => sql.fragment`now() + ${ms} * interval '1 millisecond'`;

/**
 * The deliveries, their attempts and the alert e-mails (migrations/). Claims are single
 * statements with FOR UPDATE SKIP LOCKED, so any number of dispatchers share the work;
 * an attempt is recorded with its delivery's next step and its endpoint's health in one
 * transaction, the endpoint's row locked first (the same order as API updates take).
 */
export const postgresWebhookDeliveryStore = (
  pool: DatabasePool,
  options: { readonly inboxConsumer: string; readonly sealer: TextSealer },
): WebhookDeliveryStore => ({
  // The inbox claim and the deliveries it guards in one statement, atomic without
  // BEGIN … COMMIT: one round trip per event instead of four, and every request.* event
  // comes here, with or without endpoints to deliver it to (ADR 2501).
  fanOut: (event, payload) =>
    TE.rightTask(async () => {
      const rows = await db.any(
        pool,
        Id,
        sql.unsafe`
        WITH claimed AS (${claimEventStatement(options.inboxConsumer, event.id)})
        INSERT INTO webhook_deliveries
          (id, endpoint_id, site_id, event_id, event_type, payload, status, next_attempt_at)
        SELECT gen_random_uuid(), e.id, e.site_id, ${event.id}, ${event.type}, ${payload}, 'pending', now()
        FROM webhook_endpoints e
        WHERE EXISTS (SELECT 1 FROM claimed)
          AND e.site_id = ${event.site_id} AND e.enabled AND ${event.type} = ANY (e.event_types)
        ON CONFLICT (endpoint_id, event_id) DO NOTHING
        RETURNING id`,
      );
      return rows.length;
    }),

  claimDue: (limit, leaseMs) =>
    TE.rightTask(async () => {
      const rows = await db.any(
        pool,
        ClaimedRow,
        sql.unsafe`
        WITH due AS (
          SELECT id FROM webhook_deliveries
          WHERE status IN ('pending', 'sending') AND next_attempt_at <= now()
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        ), claimed AS (
          UPDATE webhook_deliveries d
          SET status = 'sending', attempts = d.attempts + 1, next_attempt_at = ${lease(leaseMs)},
              last_attempt_at = now()
          FROM due WHERE d.id = due.id
          RETURNING d.id, d.endpoint_id, d.event_id, d.event_type, d.payload, d.attempts, d.created_at
        ), attempt AS (
          INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at)
          SELECT id, attempts, now() FROM claimed
        )
        SELECT c.id, c.event_id, c.event_type, c.payload, c.attempts, c.created_at, c.endpoint_id,
               e.url, e.enabled, e.secret, e.previous_secret, e.previous_secret_expires_at
        FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id`,
      );
      return rows.map((row): ClaimedDelivery => ({
        id: row.id,
        eventId: row.event_id,
        eventType: row.event_type,
        payload: row.payload,
        attempt: row.attempts,
        createdAt: new Date(row.created_at),
        endpoint: {
          id: row.endpoint_id,
          url: row.url,
          enabled: row.enabled,
          secret: openSecret(options.sealer, row.endpoint_id, row.secret),
          previousSecret:
            row.previous_secret === null
              ? null
              : openSecret(options.sealer, row.endpoint_id, row.previous_secret),
          previousSecretExpiresAt: row.previous_secret_expires_at,
        },
      }));
    }),

  recordAttempt: (record: AttemptRecord) =>
    TE.rightTask(() =>
      pool.transaction(async (tx): Promise<AttemptRecorded> => {
        const { delivery, result, step } = record;
        const status = result._tag === 'Response' ? result.status : null;
        const excerpt = result._tag === 'Response' ? result.excerpt : null;
        const error = step._tag === 'Delivered' ? null : step.error.slice(0, 1000);
        const durationMs = result._tag === 'Refused' ? null : Math.round(result.durationMs);
        await tx.query(sql.unsafe`
        UPDATE webhook_delivery_attempts
        SET finished_at = ${record.finishedAt.toISOString()}::timestamptz, outcome = ${outcomeOf(step)},
            response_status = ${status}, response_excerpt = ${excerpt}, error = ${error}, duration_ms = ${durationMs}
        WHERE delivery_id = ${delivery.id} AND attempt = ${delivery.attempt}`);
        const endpoint = await db.maybeOne(
          tx,
          HealthRow,
          sql.unsafe`SELECT id, enabled, failing_since, site_id, site_name, url, alert_email
                   FROM webhook_endpoints WHERE id = ${delivery.endpoint.id} FOR NO KEY UPDATE`,
        );
        if (endpoint === undefined) return { recorded: false, disabled: false };
        const settled = step._tag !== 'Retry';
        const owned = await db.exec(
          tx,
          sql.unsafe`
          UPDATE webhook_deliveries
          SET status = ${step._tag === 'Delivered' ? 'delivered' : step._tag === 'Retry' ? 'pending' : 'failed'},
              next_attempt_at = ${step._tag === 'Retry' ? step.at.toISOString() : null}::timestamptz,
              settled_at = ${settled ? record.finishedAt.toISOString() : null}::timestamptz,
              response_status = ${status}, response_excerpt = ${excerpt}, last_error = ${error}
          WHERE id = ${delivery.id} AND status = 'sending' AND attempts = ${delivery.attempt}`,
        );
        // A worker whose lease was taken over leaves the delivery (and the endpoint's health) to the new owner.
        if (owned !== 1) return { recorded: false, disabled: false };
        const health = record.health({
          enabled: endpoint.enabled,
          failingSince: endpoint.failing_since === null ? null : new Date(endpoint.failing_since),
        });
        const failingSince = health.failingSince?.toISOString() ?? null;
        if (!health.disable) {
          if (failingSince !== endpoint.failing_since)
            await tx.query(sql.unsafe`
            UPDATE webhook_endpoints SET failing_since = ${failingSince}::timestamptz WHERE id = ${endpoint.id}`);
          return { recorded: true, disabled: false };
        }
        const disabledAt = record.finishedAt.toISOString();
        await tx.query(sql.unsafe`
        UPDATE webhook_endpoints
        SET failing_since = ${failingSince}::timestamptz, enabled = false, disabled_reason = 'failing',
            updated_at = ${disabledAt}::timestamptz
        WHERE id = ${endpoint.id}`);
        await cancelPending(tx, endpoint.id, 'endpoint disabled after failing');
        const facts: EndpointDisabledAlert = {
          endpointId: endpoint.id,
          siteId: endpoint.site_id,
          siteName: endpoint.site_name,
          url: endpoint.url,
          failingSince: failingSince ?? disabledAt,
          disabledAt,
          lastError: error ?? '',
        };
        await tx.query(sql.unsafe`
        INSERT INTO webhook_alerts (id, endpoint_id, site_id, recipient, facts, status, next_attempt_at)
        VALUES (gen_random_uuid(), ${endpoint.id}, ${endpoint.site_id}, ${endpoint.alert_email},
                ${sql.jsonb({ ...facts })}, 'pending', now())`);
        return { recorded: true, disabled: true };
      }),
    ),

  cancel: (delivery, reason) =>
    TE.rightTask(async () => {
      await pool.transaction(async (tx) => {
        await tx.query(sql.unsafe`
        UPDATE webhook_delivery_attempts
        SET finished_at = now(), outcome = 'failed', error = ${`not sent: ${reason}`}
        WHERE delivery_id = ${delivery.id} AND attempt = ${delivery.attempt}`);
        await tx.query(sql.unsafe`
        UPDATE webhook_deliveries
        SET status = 'failed', last_error = ${reason}, next_attempt_at = NULL, settled_at = now()
        WHERE id = ${delivery.id} AND status = 'sending' AND attempts = ${delivery.attempt}`);
      });
    }),

  prune: (before, limit) =>
    TE.rightTask(() =>
      db.exec(
        pool,
        sql.unsafe`
          DELETE FROM webhook_deliveries WHERE id IN (
            SELECT id FROM webhook_deliveries
            WHERE settled_at IS NOT NULL AND created_at < ${before.toISOString()}::timestamptz
            LIMIT ${limit})`,
      ),
    ),

  claimAlerts: (limit, leaseMs) =>
    TE.rightTask(async () => {
      const rows = await db.any(
        pool,
        AlertRow,
        sql.unsafe`
        WITH due AS (
          SELECT id FROM webhook_alerts
          WHERE status IN ('pending', 'sending') AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE webhook_alerts a
        SET status = 'sending', attempts = a.attempts + 1, next_attempt_at = ${lease(leaseMs)}
        FROM due WHERE a.id = due.id
        RETURNING a.id, a.recipient, a.attempts, a.facts`,
      );
      return rows.map((row): ClaimedAlert => ({
        id: row.id,
        to: row.recipient,
        attempt: row.attempts,
        alert: row.facts,
      }));
    }),

  // Both minimums read the partial indexes on next_attempt_at (ADR 2900).
  nextDueInMs: () =>
    TE.rightTask(() =>
      msUntil(
        pool,
        sql.fragment`least(
          (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status IN ('pending', 'sending')),
          (SELECT min(next_attempt_at) FROM webhook_alerts WHERE status IN ('pending', 'sending')))`,
      ),
    ),

  alertSent: (alert, providerMessageId) =>
    TE.rightTask(async () => {
      await pool.query(sql.unsafe`
      UPDATE webhook_alerts
      SET status = 'sent', provider_message_id = ${providerMessageId}, next_attempt_at = NULL, settled_at = now()
      WHERE id = ${alert.id} AND status = 'sending' AND attempts = ${alert.attempt}`);
    }),

  alertFailed: (alert, error, retryAt) =>
    TE.rightTask(async () => {
      await pool.query(sql.unsafe`
      UPDATE webhook_alerts
      SET status = ${retryAt === null ? 'failed' : 'pending'}, last_error = ${error.slice(0, 1000)},
          next_attempt_at = ${retryAt?.toISOString() ?? null}::timestamptz,
          settled_at = ${retryAt === null ? new Date().toISOString() : null}::timestamptz
      WHERE id = ${alert.id} AND status = 'sending' AND attempts = ${alert.attempt}`);
    }),
});
