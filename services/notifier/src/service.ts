import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type { Registry } from 'prom-client';
import { systemClock, type Clock } from '@esign/contracts';
import { createHttpApp, finishApp, type AppState, type Logger, type ShutdownStep } from '@esign/platform';
import {
  isDatabaseUnavailable,
  startService,
  type DatabasePool,
  type RunningService,
} from '@esign/platform/database';
import type { EventConsumer } from '@esign/platform/messaging';
import { outboxDir, type Config } from './config.js';
import { migrationsDir } from './migrate.js';
import { notifySigners } from './application/notify-signers.js';
import { listTestMessages } from './application/test-messages.js';
import { postgresTestInbox } from './adapters/postgres/postgres-test-inbox.js';
import { mountTestMessageRoutes } from './adapters/http/test-message-routes.js';
import { postgresDeliveryStore } from './adapters/postgres/postgres-delivery-store.js';
import { smtpEmailSender } from './adapters/smtp/smtp-email-sender.js';
import { emlRenderer } from './adapters/smtp/mail-options.js';
import {
  localEmailOutbox,
  localSmsOutbox,
  prepareLocalOutbox,
} from './adapters/local-outbox/local-outbox.js';
import { notificationConsumer } from './adapters/amqp/notification-consumer.js';
import { notifierMetrics } from './adapters/metrics/notifier-metrics.js';
import { sharedMessageQuota, type PerDay } from './adapters/quota/limiter-message-quota.js';
import type { EmailSender } from './ports/email-sender.js';
import type { SmsSender } from './ports/sms-sender.js';
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
import { smsSenderOnFirstUse, webhookSenderOnFirstUse } from './adapters/senders-on-first-use.js';
import { sealLegacyWebhookSecrets } from './adapters/postgres/postgres-webhook-endpoint-store.js';

/** Shutdown order: stop taking messages, finish those in hand, then close the rest. */
export type RunningNotifier = RunningService;

/** A channel's sender as the composition root keeps it: its name for the logs, and its shutdown. */
interface Channel<Sender> {
  readonly name: 'smtp' | 'twilio' | 'local-outbox';
  readonly sender: Sender;
  readonly steps: readonly ShutdownStep[];
}

const emailChannel = (config: Config, logger: Logger): Channel<EmailSender> => {
  if (config.SMTP_URL === undefined)
    return {
      name: 'local-outbox',
      sender: localEmailOutbox({ dir: outboxDir(config), render: emlRenderer(config.EMAIL_FROM), logger }),
      steps: [],
    };
  const smtp = smtpEmailSender({
    url: config.SMTP_URL,
    from: config.EMAIL_FROM,
    maxConnections: config.NOTIFIER_SMTP_CONNECTIONS,
  });
  return { name: 'smtp', sender: smtp.sender, steps: [{ name: 'email', run: smtp.close }] };
};

const smsChannel = (config: Config, logger: Logger): Channel<SmsSender> => {
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = config;
  if (accountSid === undefined || authToken === undefined || from === undefined)
    return { name: 'local-outbox', sender: localSmsOutbox({ dir: outboxDir(config), logger }), steps: [] };
  const twilio = { accountSid, authToken, from, apiBaseUrl: config.TWILIO_API_BASE_URL };
  // The SDK is imported on the first SMS (ADR 2740); config.ts checked the settings at start.
  const sender = smsSenderOnFirstUse(async () =>
    (await import('./adapters/twilio/twilio-sms-sender.js')).twilioSmsSender(twilio),
  );
  return { name: 'twilio', sender, steps: [] };
};

/**
 * The composition root: the platform migrates, opens Postgres and RabbitMQ, runs the
 * outbox relay and owns readiness and shutdown (`startService`); here the adapters are
 * built and wired to the use cases (the webhook part by `startWebhooks` below).
 */
export const startNotifierService = async (
  config: Config,
  logger: Logger,
  overrides: WebhookOverrides = {},
): Promise<RunningNotifier> =>
  startService({
    service: 'notifier',
    logger,
    databaseUrl: config.DATABASE_URL,
    migrationsDir,
    messaging: { amqpUrl: config.AMQP_URL, prefix: config.AMQP_PREFIX },
    build: async ({ pool, metrics, readiness, handoff }) => {
      const email = emailChannel(config, logger);
      const sms = smsChannel(config, logger);
      const usesLocalOutbox = email.name === 'local-outbox' || sms.name === 'local-outbox';
      if (usesLocalOutbox) await prepareLocalOutbox(outboxDir(config));
      logger.info(
        { email: email.name, sms: sms.name, ...(usesLocalOutbox ? { outbox_dir: outboxDir(config) } : {}) },
        'notification channels',
      );
      const clock = overrides.clock ?? systemClock;
      const perDay: PerDay = {
        site: { email: config.NOTIFIER_SITE_DAILY_EMAILS, sms: config.NOTIFIER_SITE_DAILY_SMS },
        recipient: {
          email: config.NOTIFIER_RECIPIENT_DAILY_EMAILS,
          sms: config.NOTIFIER_RECIPIENT_DAILY_SMS,
        },
      };
      const quota = sharedMessageQuota({
        perDay,
        redisUrl: config.REDIS_URL,
        keyPrefix: config.NOTIFIER_QUOTA_KEY_PREFIX,
        timeoutMs: config.REDIS_TIMEOUT_MS,
        replicas: config.NOTIFIER_REPLICAS,
        clock,
        logger,
      });
      const testInbox = postgresTestInbox(pool);
      const notify = notifySigners({
        store: postgresDeliveryStore(pool, handoff),
        testInbox,
        email: email.sender,
        sms: sms.sender,
        quota: quota.quota,
        clock,
        ids: { eventId: randomUUID },
        leaseMs: config.NOTIFIER_LEASE_MS,
        concurrency: config.NOTIFIER_SEND_CONCURRENCY,
      });
      const consumer = notificationConsumer({
        prefix: config.AMQP_PREFIX,
        logger,
        retryDelaysMs: config.NOTIFIER_RETRY_DELAYS_MS,
        prefetch: config.NOTIFIER_PREFETCH,
        notify,
        metrics: notifierMetrics(metrics.registry),
      });
      // Rows written before webhook secrets were sealed are sealed now (ADR 1312).
      const resealed = await sealLegacyWebhookSecrets(pool, webhookSecretSealer(config));
      if (resealed > 0) logger.info({ endpoints: resealed }, 'sealed webhook secrets stored in the clear');
      const webhooks = startWebhooks(
        config,
        { pool, logger, email: email.sender, registry: metrics.registry },
        overrides,
      );
      const { app, router } = createHttpApp({
        service: 'notifier',
        logger,
        metrics,
        readiness,
        isOutage: isDatabaseUnavailable,
      });
      webhooks.mount(router);
      mountTestMessageRoutes(router, listTestMessages({ testInbox }), {
        gatewayPublicKey: config.PRINCIPAL_PUBLIC_KEY,
      });
      return {
        app: finishApp(app, router),
        consumers: [consumer, webhooks.consumer],
        steps: [...webhooks.steps, ...email.steps, ...sms.steps, { name: 'redis', run: () => quota.close() }],
      };
    },
  });

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
    pollIntervalMs: config.WEBHOOKS_POLL_INTERVAL_MS,
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
