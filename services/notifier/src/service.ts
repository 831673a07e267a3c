import { randomUUID } from 'node:crypto';
import { systemClock } from '@esign/contracts';
import { createHttpApp, finishApp, type Logger, type ShutdownStep } from '@esign/platform';
import { isDatabaseUnavailable, startService, type RunningService } from '@esign/platform/database';
import { outboxDir, type Config } from './config.js';
import { migrationsDir } from './migrate.js';
import { notifySigners } from './application/notify-signers.js';
import { listTestMessages } from './application/test-messages.js';
import { postgresTestInbox } from './adapters/postgres/postgres-test-inbox.js';
import { mountTestMessageRoutes } from './adapters/http/test-message-routes.js';
import { postgresDeliveryStore } from './adapters/postgres/postgres-delivery-store.js';
import { postgresDeliveryReports } from './adapters/postgres/postgres-delivery-reports.js';
import { recordDeliveryReport } from './application/record-delivery-report.js';
import { mountSmsStatusCallback, SMS_STATUS_PATH } from './adapters/twilio/status-callback.js';
import { smtpEmailSender } from './adapters/smtp/smtp-email-sender.js';
import { emlRenderer } from './adapters/smtp/mail-options.js';
import {
  localEmailOutbox,
  localSmsOutbox,
  prepareLocalOutbox,
} from './adapters/local-outbox/local-outbox.js';
import { ACCOUNT_EMAILS_CONSUMER, accountEmailConsumer } from './adapters/amqp/account-email-consumer.js';
import { notificationConsumer } from './adapters/amqp/notification-consumer.js';
import { postgresEventClaims } from './adapters/postgres/postgres-event-claims.js';
import { sendAccountEmail } from './application/send-account-email.js';
import { notifierMetrics } from './adapters/metrics/notifier-metrics.js';
import { sharedMessageQuota, type PerDay } from './adapters/quota/limiter-message-quota.js';
import type { EmailSender } from './ports/email-sender.js';
import type { SmsSender } from './ports/sms-sender.js';
import { webhookSecretSealer } from './adapters/crypto/webhook-secrets.js';
import { startWebhooks, type WebhookOverrides } from './webhooks.js';
import { smsSenderOnFirstUse } from './adapters/senders-on-first-use.js';
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
  const twilio = {
    accountSid,
    authToken,
    from,
    apiBaseUrl: config.TWILIO_API_BASE_URL,
    ...(config.TWILIO_STATUS_CALLBACK_URL === undefined
      ? {}
      : { statusCallback: config.TWILIO_STATUS_CALLBACK_URL }),
  };
  // The SDK is imported on the first SMS (ADR 2740); config.ts checked the settings at start.
  const sender = smsSenderOnFirstUse(async () =>
    (await import('./adapters/twilio/twilio-sms-sender.js')).twilioSmsSender(twilio),
  );
  return { name: 'twilio', sender, steps: [] };
};

/**
 * The composition root: the platform migrates, opens Postgres and RabbitMQ, runs the
 * outbox relay and owns readiness and shutdown (`startService`); here the adapters are
 * built and wired to the use cases (the webhook part by `startWebhooks`, webhooks.ts).
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
      // Auth's e-mails to users: password links and change notices (ADRs 3000, 3020).
      const accountEmails = accountEmailConsumer({
        prefix: config.AMQP_PREFIX,
        logger,
        retryDelaysMs: config.NOTIFIER_RETRY_DELAYS_MS,
        send: sendAccountEmail({
          email: email.sender,
          claims: postgresEventClaims(pool, ACCOUNT_EMAILS_CONSUMER),
          clock,
          operatorContact: config.OPERATOR_CONTACT,
        }),
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
        rawBodyPaths: [SMS_STATUS_PATH],
      });
      // Twilio's reports on SMS it accepted, when it is asked for them (ADR 3880).
      const { TWILIO_AUTH_TOKEN: authToken, TWILIO_STATUS_CALLBACK_URL: callbackUrl } = config;
      if (sms.name === 'twilio' && authToken !== undefined && callbackUrl !== undefined)
        mountSmsStatusCallback(router, {
          authToken,
          callbackUrl,
          record: recordDeliveryReport({
            reports: postgresDeliveryReports(pool, handoff),
            clock,
            ids: { eventId: randomUUID },
          }),
          logger,
        });
      webhooks.mount(router);
      mountTestMessageRoutes(router, listTestMessages({ testInbox }), {
        gatewayPublicKey: config.PRINCIPAL_PUBLIC_KEY,
      });
      return {
        app: finishApp(app, router),
        consumers: [consumer, webhooks.consumer, accountEmails],
        steps: [...webhooks.steps, ...email.steps, ...sms.steps, { name: 'redis', run: () => quota.close() }],
      };
    },
  });
