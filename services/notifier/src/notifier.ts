import { randomUUID } from 'node:crypto';
import { systemClock } from '@esign/contracts';
import {
  createHttpApp,
  createRateLimiter,
  finishApp,
  memoryRateLimiter,
  startService,
  type Logger,
  type RunningService,
} from '@esign/platform';
import { outboxDir, type Config } from './config.js';
import { migrationsDir } from './migrate.js';
import { notifySigners } from './application/notify-signers.js';
import { listTestMessages } from './application/test-messages.js';
import { postgresTestInbox } from './adapters/postgres/postgres-test-inbox.js';
import { mountTestMessageRoutes } from './adapters/http/test-message-routes.js';
import { postgresDeliveryStore } from './adapters/postgres/postgres-delivery-store.js';
import { smtpEmailSender } from './adapters/smtp/smtp-email-sender.js';
import { emlRenderer } from './adapters/smtp/mail-options.js';
import { twilioSmsSender } from './adapters/twilio/twilio-sms-sender.js';
import {
  localEmailOutbox,
  localSmsOutbox,
  prepareLocalOutbox,
} from './adapters/local-outbox/local-outbox.js';
import { notificationConsumer } from './adapters/amqp/notification-consumer.js';
import { notifierMetrics } from './adapters/metrics/notifier-metrics.js';
import { limiterMessageQuota, type PerDay } from './adapters/quota/limiter-message-quota.js';
import type { EmailSender } from './ports/email-sender.js';
import type { SmsSender } from './ports/sms-sender.js';
import { startWebhooks, webhookSecretSealer, type WebhookOverrides } from './webhooks.js';
import { sealLegacyWebhookSecrets } from './adapters/postgres/postgres-webhook-endpoint-store.js';

/** Shutdown order: stop taking messages, finish those in hand, then close the rest. */
export type RunningNotifier = RunningService;

const emailSender = (config: Config, logger: Logger): EmailSender =>
  config.SMTP_URL !== undefined
    ? smtpEmailSender({
        url: config.SMTP_URL,
        from: config.EMAIL_FROM,
        maxConnections: config.NOTIFIER_SMTP_CONNECTIONS,
      })
    : localEmailOutbox({ dir: outboxDir(config), render: emlRenderer(config.EMAIL_FROM), logger });

const smsSender = (config: Config, logger: Logger): SmsSender =>
  config.TWILIO_ACCOUNT_SID !== undefined &&
  config.TWILIO_AUTH_TOKEN !== undefined &&
  config.TWILIO_FROM !== undefined
    ? twilioSmsSender({
        accountSid: config.TWILIO_ACCOUNT_SID,
        authToken: config.TWILIO_AUTH_TOKEN,
        from: config.TWILIO_FROM,
        apiBaseUrl: config.TWILIO_API_BASE_URL,
      })
    : localSmsOutbox({ dir: outboxDir(config), logger });

/**
 * The composition root: the platform migrates, opens Postgres and RabbitMQ, runs the
 * outbox relay and owns readiness and shutdown (`startService`); here the adapters are
 * built and wired to the use cases.
 */
export const startNotifier = async (
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
    build: async ({ pool, metrics, readiness }) => {
      const email = emailSender(config, logger);
      const sms = smsSender(config, logger);
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
      const now = () => clock.now().getTime();
      // The gateway's limiter over the same Redis: shared by every replica, 1/N each
      // while Redis is away (ADR 0903); no connection when every quota is off.
      const enabled = Object.values(perDay).some((c) => c.email > 0 || c.sms > 0);
      if (enabled && config.REDIS_URL === undefined)
        logger.warn(
          'message quotas: REDIS_URL is not set, so this replica counts them alone; set it when more than one notifier runs',
        );
      const local = memoryRateLimiter({ now, maxBuckets: 100_000 });
      const limiter = createRateLimiter(
        {
          redisUrl: config.REDIS_URL ?? 'redis://127.0.0.1:6379',
          keyPrefix: config.NOTIFIER_QUOTA_KEY_PREFIX,
          timeoutMs: config.REDIS_TIMEOUT_MS,
          replicas: config.NOTIFIER_REPLICAS,
          label: 'message quotas',
        },
        {
          now,
          logger,
          // Off (no connection): the local buckets alone, at the full quota.
          enabled: enabled && config.REDIS_URL !== undefined,
          local,
        },
      );
      const testInbox = postgresTestInbox(pool);
      const notify = notifySigners({
        store: postgresDeliveryStore(pool),
        testInbox,
        email,
        sms,
        quota: limiterMessageQuota({ limit: limiter.limit, perDay }),
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
      const webhooks = startWebhooks(config, { pool, logger, email, registry: metrics.registry }, overrides);
      const { app, router } = createHttpApp({ service: 'notifier', logger, metrics, readiness });
      webhooks.mount(router);
      mountTestMessageRoutes(router, listTestMessages({ testInbox }), {
        gatewayPublicKey: config.PRINCIPAL_PUBLIC_KEY,
      });
      return {
        app: finishApp(app, router),
        consumers: [consumer, webhooks.consumer],
        steps: [
          ...webhooks.steps,
          { name: 'email', run: () => email.close() },
          { name: 'sms', run: () => sms.close() },
          { name: 'redis', run: () => limiter.close() },
        ],
      };
    },
  });
