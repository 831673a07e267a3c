import * as E from 'fp-ts/lib/Either.js';
import { DEFAULT_AUTH_POLICY } from './domain/signer-authentication.js';
import { startService, type Logger, type RunningService } from '@esign/platform';
import { notificationOutcomesConsumer } from './adapters/amqp/notification-outcomes-consumer.js';
import { every } from './adapters/periodic.js';
import { sealerFromFiles } from './adapters/pdf/sealer-from-files.js';
import { purgeIdempotencyKeys } from './adapters/postgres/maintenance.js';
import { createRequestsApp } from './app.js';
import { bulkSendPacing } from './bulk-send-pacing.js';
import type { Config } from './config.js';
import { migrationsDir } from './migrate.js';

const EXPIRY_BATCH = 100;
/** Executed documents issued per run of the background issuer, and how often it runs. */
const ISSUE_BATCH = 5;
const ISSUE_INTERVAL_MS = 2000;
/** Bulk-send rows per worker run, how often it runs, and how long a claimed row is held. */
const BULK_BATCH = 20;
const BULK_INTERVAL_MS = 50;
const BULK_LEASE_MS = 15_000;
/** Rows of a batch in flight at once (each holds a pooled connection while it runs). */
const BULK_CONCURRENCY = 4;

/**
 * The composition root, on the platform's skeleton (`startService`: migrations, pool,
 * RabbitMQ with the notifier-outcome consumer, outbox relay, readiness and shutdown):
 * builds the app on real adapters and starts what runs beside HTTP (expiry sweep,
 * executed-document issuer, bulk-send worker, idempotency-key purge).
 */
export const startRequestsService = (config: Config, logger: Logger): Promise<RunningService> =>
  startService({
    service: 'requests',
    logger,
    databaseUrl: config.DATABASE_URL,
    migrationsDir,
    messaging: { amqpUrl: config.AMQP_URL, prefix: config.AMQP_PREFIX },
    build: ({ pool, readiness }) => {
      const sealer = sealerFromFiles({
        certFile: config.PDF_SIGNING_CERT_FILE ?? '',
        keyFile: config.PDF_SIGNING_KEY_FILE ?? '',
        p12File: config.PDF_SIGNING_P12_FILE ?? '',
        passphrase: config.PDF_SIGNING_PASSPHRASE ?? '',
        tsaUrl: config.PDF_SIGNING_TSA_URL ?? '',
      });
      if (sealer === null)
        logger.warn(
          'no PDF signing certificate configured (PDF_SIGNING_CERT_FILE/PDF_SIGNING_KEY_FILE or PDF_SIGNING_P12_FILE): executed documents cannot be issued',
        );
      const costly = bulkSendPacing(config, logger);
      const { app, cases, processBulkRows } = createRequestsApp({
        pool,
        logger,
        readiness,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        gatewayPublicKey: config.PRINCIPAL_PUBLIC_KEY,
        signingKeys: config.URL_SIGNING_KEYS,
        idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
        remindPolicy: {
          minIntervalSeconds: config.REMIND_MIN_INTERVAL_SECONDS,
          maxReminders: config.REMIND_MAX,
        },
        linkLifetimeMs: config.EXECUTION_URL_LIFETIME_DAYS * 86_400_000,
        frameAncestors: config.SIGNING_FRAME_ANCESTORS,
        trustedProxyHops: config.TRUSTED_PROXY_HOPS,
        sealer,
        sendAllowance: costly.allowance,
        authPolicy: { ...DEFAULT_AUTH_POLICY, smsPerHour: config.SIGNER_SMS_CODES_PER_HOUR },
      });
      const outcomes = notificationOutcomesConsumer({
        prefix: config.AMQP_PREFIX,
        logger,
        record: cases.recordNotificationOutcome,
      });
      const expiry = every('expire requests', config.EXPIRY_SWEEP_INTERVAL_MS, logger, async () => {
        for (;;) {
          const result = await cases.expireDueRequests(EXPIRY_BATCH)();
          const expired = E.isRight(result) ? result.right : 0;
          if (expired > 0) logger.info({ expired }, 'requests expired');
          if (expired < EXPIRY_BATCH) return;
        }
      });
      // Each Request that completes gets its executed document issued once, here, soon after
      // (and so do those completed before documents were kept); a download first issues it too.
      const issue = every('issue executed documents', ISSUE_INTERVAL_MS, logger, async () => {
        for (;;) {
          const result = await cases.issueMissingExecutedDocuments(ISSUE_BATCH)();
          const run = E.isRight(result) ? result.right : { issued: 0, failed: [] };
          if (run.issued > 0) logger.info({ issued: run.issued }, 'executed documents issued');
          for (const failure of run.failed)
            logger.warn(failure, 'executed document not issued; the next run tries again');
          // Another batch only while this one was full of successes.
          if (run.issued < ISSUE_BATCH) return;
        }
      });
      // Bulk sends (ADR 2201): every replica works through pending rows, a batch at a time.
      // One batch per run, so a shutdown waits for one batch at most.
      const bulk = every('bulk sends', BULK_INTERVAL_MS, logger, async () => {
        const settled = await processBulkRows(BULK_BATCH, BULK_LEASE_MS, BULK_CONCURRENCY);
        if (settled > 0) logger.debug({ settled }, 'bulk-send rows settled');
      });
      const purge = every('purge idempotency keys', 3_600_000, logger, async () => {
        const purged = await purgeIdempotencyKeys(pool, config.IDEMPOTENCY_RETENTION_HOURS);
        if (purged > 0) logger.info({ purged }, 'idempotency keys purged');
      });
      return Promise.resolve({
        app,
        consumers: [outcomes],
        steps: [
          {
            name: 'maintenance',
            run: () =>
              Promise.all([expiry.stop(), purge.stop(), issue.stop(), bulk.stop()]).then(() => undefined),
          },
          { name: 'redis', run: () => costly.close() },
        ],
      });
    },
  });
