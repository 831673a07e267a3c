import type Router from '@koa/router';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Registry } from 'prom-client';
import { systemClock, type Clock } from '@esign/contracts';
import type { AppState, Logger, ShutdownStep } from '@esign/platform';
import type { DatabasePool } from '@esign/platform/database';
import type { EventConsumer } from '@esign/platform/messaging';
import type { Config } from './config.js';
import type { EmailSender } from './ports/email-sender.js';
import { deliverDueWebhooks } from './application/webhooks/deliver-due-webhooks.js';
import { fanOutWebhookEvent } from './application/webhooks/fan-out-webhook-event.js';
import { pruneWebhookDeliveries } from './application/webhooks/prune-webhook-deliveries.js';
import { sendWebhookAlerts } from './application/webhooks/send-webhook-alerts.js';
import { webhookUseCases } from './application/webhooks/webhook-use-cases.js';
import { webhookEventConsumer, WEBHOOK_CONSUMER_NAME } from './adapters/amqp/webhook-event-consumer.js';
import { hmacWebhookSignature } from './adapters/crypto/hmac-webhook-signature.js';
import { webhookRandom, webhookSecretSealer } from './adapters/crypto/webhook-secrets.js';
import { mountWebhookRoutes } from './adapters/http/webhook-routes.js';
import { webhookMetrics } from './adapters/metrics/webhook-metrics.js';
import { postgresWebhookDeliveryStore } from './adapters/postgres/postgres-webhook-delivery-store.js';
import { postgresWebhookEndpointStore } from './adapters/postgres/postgres-webhook-endpoint-store.js';
import { startWebhookDispatcher } from './adapters/scheduler/webhook-dispatcher.js';
import { webhookRounds } from './adapters/scheduler/webhook-rounds.js';
import {
  destinationPolicy,
  systemResolver,
  type Resolver,
} from './adapters/webhook-http/destination-policy.js';
import { webhookSenderOnFirstUse } from './adapters/senders-on-first-use.js';

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
  // undici is imported on the first delivery (ADR 2740).
  const sender = webhookSenderOnFirstUse(async () =>
    (await import('./adapters/webhook-http/undici-webhook-sender.js')).undiciWebhookSender({
      policy,
      connectTimeoutMs: config.WEBHOOKS_CONNECT_TIMEOUT_MS,
      responseTimeoutMs: config.WEBHOOKS_RESPONSE_TIMEOUT_MS,
    }),
  );
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
  const prune = pruneWebhookDeliveries({
    deliveries,
    clock,
    retentionMs: config.WEBHOOKS_RETENTION_DAYS * 86_400_000,
    everyMs: PRUNE_EVERY_MS,
    batch: 10_000,
  });

  const dispatcher = startWebhookDispatcher({
    nextDueInMs: TE.toUnion(deliveries.nextDueInMs()),
    pollIntervalMs: config.WEBHOOKS_POLL_INTERVAL_MS,
    idlePollIntervalMs: config.WEBHOOKS_IDLE_POLL_INTERVAL_MS,
    logger: deps.logger,
    rounds: webhookRounds({
      deliver,
      alerts,
      prune,
      record: metrics.record,
      logger: deps.logger,
      concurrency: config.WEBHOOKS_CONCURRENCY,
    }),
  });

  const endpoints = postgresWebhookEndpointStore(deps.pool, sealer);
  const consumer = webhookEventConsumer({
    prefix: config.AMQP_PREFIX,
    logger: deps.logger,
    retryDelaysMs: config.NOTIFIER_RETRY_DELAYS_MS,
    prefetch: config.NOTIFIER_PREFETCH,
    fanOut: fanOutWebhookEvent({ deliveries, wake: () => dispatcher.wake() }),
    sitesWithEndpoints: endpoints.sitesWithEndpoints,
  });

  const cases = webhookUseCases({
    endpoints,
    guard: policy,
    random: webhookRandom,
    clock,
    routing: consumer.routing,
  });

  return {
    consumer,
    mount: (router) => mountWebhookRoutes(router, cases, { gatewayPublicKey: config.PRINCIPAL_PUBLIC_KEY }),
    steps: [{ name: 'webhook-dispatcher', run: () => dispatcher.stop() }],
  };
};
