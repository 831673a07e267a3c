import { randomBytes, randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import {
  keyEncryption,
  textSealer,
  type AppState,
  type DatabasePool,
  type EventConsumer,
  type KeyEncryptionDomain,
  type Logger,
  type ShutdownStep,
  type TextSealer,
} from '@esign/platform';
import type { Registry } from 'prom-client';
import type { Config } from './config.js';
import { deliverDueWebhooks } from './application/webhooks/deliver-due-webhooks.js';
import { fanOutWebhookEvent } from './application/webhooks/fan-out-webhook-event.js';
import { pruneWebhookDeliveries } from './application/webhooks/prune-webhook-deliveries.js';
import { sendWebhookAlerts } from './application/webhooks/send-webhook-alerts.js';
import { webhookUseCases } from './application/webhooks/webhook-use-cases.js';
import { webhookEventConsumer, WEBHOOK_CONSUMER_NAME } from './adapters/amqp/webhook-event-consumer.js';
import { mountWebhookRoutes } from './adapters/http/webhook-routes.js';
import { webhookMetrics } from './adapters/metrics/webhook-metrics.js';
import { postgresWebhookDeliveryStore } from './adapters/postgres/postgres-webhook-delivery-store.js';
import { postgresWebhookEndpointStore } from './adapters/postgres/postgres-webhook-endpoint-store.js';
import { startWebhookDispatcher } from './adapters/scheduler/webhook-dispatcher.js';
import {
  destinationPolicy,
  systemResolver,
  type Resolver,
} from './adapters/webhook-http/destination-policy.js';
import { undiciWebhookSender } from './adapters/webhook-http/undici-webhook-sender.js';
import type { EmailSender } from './ports/email-sender.js';
import { systemClock } from '@esign/contracts';
import type { Clock } from './ports/runtime.js';
import type { WebhookRandom } from './ports/webhook-runtime.js';
import { hmacWebhookSignature } from './adapters/crypto/hmac-webhook-signature.js';

export interface WebhookOverrides {
  /** DNS for the SSRF guard; tests map their host names to chosen addresses. */
  readonly resolve?: Resolver;
  /** The time of every webhook rule: back-off, give-up, disabling, secret overlap, pruning. */
  readonly clock?: Clock;
}

export interface RunningWebhooks {
  readonly consumer: EventConsumer;
  readonly mount: (router: Router<AppState>) => void;
  /** Shutdown: after the consumers stop, finish the deliveries in hand. */
  readonly steps: readonly ShutdownStep[];
}

/** How often settled deliveries older than the retention are pruned. */
const PRUNE_EVERY_MS = 3_600_000;

/** Webhook secrets' own sealing keys, derived from KEY_ENCRYPTION_KEYS (ADR 1312). */
export const WEBHOOK_SECRET_ENCRYPTION: KeyEncryptionDomain = {
  salt: 'esign-notifier',
  purpose: 'webhook-secret-encryption',
};

export const webhookSecretSealer = (config: Pick<Config, 'KEY_ENCRYPTION_KEYS'>): TextSealer =>
  textSealer(keyEncryption(config.KEY_ENCRYPTION_KEYS, WEBHOOK_SECRET_ENCRYPTION));

export const webhookRandom: WebhookRandom = {
  secret: () => `whsec_${randomBytes(32).toString('base64url')}`,
  uuid: randomUUID,
  jitter: Math.random,
};

/**
 * The webhook part of the notifier: the API, the consumer that turns `request.*` events
 * into deliveries, and the dispatcher that sends them and the alert e-mails.
 */
export const startWebhooks = (
  config: Config,
  deps: {
    readonly pool: DatabasePool;
    readonly logger: Logger;
    readonly email: EmailSender;
    readonly registry: Registry;
  },
  overrides: WebhookOverrides = {},
): RunningWebhooks => {
  const clock = overrides.clock ?? systemClock;
  const policy = destinationPolicy({
    allowHttp: config.WEBHOOKS_ALLOW_HTTP,
    allowPrivateAddresses: config.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES,
    resolve: overrides.resolve ?? systemResolver,
  });
  if (config.WEBHOOKS_ALLOW_HTTP || config.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES)
    deps.logger.warn(
      {
        allow_http: config.WEBHOOKS_ALLOW_HTTP,
        allow_private_addresses: config.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES,
      },
      'webhook destination checks relaxed: for local development only',
    );
  const sender = undiciWebhookSender({
    policy,
    connectTimeoutMs: config.WEBHOOKS_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: config.WEBHOOKS_RESPONSE_TIMEOUT_MS,
  });
  const sealer = webhookSecretSealer(config);
  const deliveries = postgresWebhookDeliveryStore(deps.pool, {
    inboxConsumer: WEBHOOK_CONSUMER_NAME,
    sealer,
  });
  const metrics = webhookMetrics(deps.registry);
  const leaseMs = config.WEBHOOKS_CONNECT_TIMEOUT_MS + config.WEBHOOKS_RESPONSE_TIMEOUT_MS + 30_000;
  const deliver = deliverDueWebhooks({
    signature: hmacWebhookSignature,
    deliveries,
    sender,
    clock,
    random: webhookRandom,
    policy: {
      baseDelayMs: config.WEBHOOKS_RETRY_BASE_DELAY_MS,
      maxDelayMs: config.WEBHOOKS_RETRY_MAX_DELAY_MS,
      windowMs: config.WEBHOOKS_RETRY_WINDOW_MS,
    },
    disableAfterMs: config.WEBHOOKS_DISABLE_AFTER_MS,
    leaseMs,
    concurrency: config.WEBHOOKS_CONCURRENCY,
  });
  const alerts = sendWebhookAlerts({ deliveries, email: deps.email, clock, leaseMs: 120_000 });
  const log = deps.logger.child({ component: 'webhooks' });
  const prune = pruneWebhookDeliveries({
    deliveries,
    clock,
    retentionMs: config.WEBHOOKS_RETENTION_DAYS * 86_400_000,
    everyMs: PRUNE_EVERY_MS,
    batch: 10_000,
  });

  const dispatcher = startWebhookDispatcher({
    pollIntervalMs: config.WEBHOOKS_POLL_INTERVAL_MS,
    logger: deps.logger,
    rounds: [
      {
        name: 'deliveries',
        run: async () => {
          const report = await deliver();
          metrics.record(report);
          for (const { delivery, outcome } of report.deliveries) {
            if (outcome._tag !== 'Attempted' || outcome.step._tag === 'Delivered') continue;
            const meta = {
              delivery_id: delivery.id,
              endpoint_id: delivery.endpoint.id,
              event_id: delivery.eventId,
              attempt: delivery.attempt,
              error: outcome.step.error,
            };
            if (outcome.step._tag === 'Retry')
              log.info({ ...meta, retry_at: outcome.step.at }, 'webhook attempt failed');
            else log.warn(meta, 'webhook delivery failed');
            if (outcome.disabled)
              log.warn({ endpoint_id: delivery.endpoint.id }, 'webhook endpoint disabled');
          }
          return report.deliveries.length >= config.WEBHOOKS_CONCURRENCY;
        },
      },
      {
        name: 'alerts',
        run: async () => {
          const { sent, failed } = await alerts();
          if (failed > 0) log.warn({ sent, failed }, 'webhook alert e-mails failed');
          return false;
        },
      },
      {
        name: 'prune',
        run: async () => {
          const pruned = await prune();
          if (pruned > 0) log.info({ pruned }, 'pruned old webhook deliveries');
          return false;
        },
      },
    ],
  });

  const consumer = webhookEventConsumer({
    prefix: config.AMQP_PREFIX,
    logger: deps.logger,
    retryDelaysMs: config.NOTIFIER_RETRY_DELAYS_MS,
    prefetch: config.NOTIFIER_PREFETCH,
    fanOut: fanOutWebhookEvent({ deliveries, wake: () => dispatcher.wake() }),
  });

  const cases = webhookUseCases({
    endpoints: postgresWebhookEndpointStore(deps.pool, sealer),
    guard: policy,
    random: webhookRandom,
    clock,
  });

  return {
    consumer,
    mount: (router) => mountWebhookRoutes(router, cases, { gatewayPublicKey: config.PRINCIPAL_PUBLIC_KEY }),
    steps: [
      { name: 'webhook-dispatcher', run: () => dispatcher.stop() },
      { name: 'webhook-sender', run: () => sender.close() },
    ],
  };
};
