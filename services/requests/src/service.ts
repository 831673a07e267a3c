import type { KeyObject } from 'node:crypto';
import type Koa from 'koa';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AppState, Logger, ReadinessCheck } from '@esign/platform';
import {
  startService,
  type DatabasePool,
  type OutboxHandoff,
  type RunningService,
} from '@esign/platform/database';
import { notificationOutcomesConsumer } from './adapters/amqp/notification-outcomes-consumer.js';
import { scryptCodeHasher } from './adapters/crypto/scrypt-code-hasher.js';
import { hmacFormTokens } from './adapters/crypto/hmac-form-tokens.js';
import { hmacUrlSigner, type SigningKey } from './adapters/crypto/hmac-url-signer.js';
import { randomEmbeddedTokens } from './adapters/crypto/random-embedded-tokens.js';
import { sanitizeHtmlPolicy } from './adapters/html/sanitize-html-policy.js';
import { createRequestsHttpApp } from './adapters/http/app.js';
import { lazyPdfRenderer } from './adapters/pdf/lazy-pdf-renderer.js';
import { sealerFromFiles } from './adapters/pdf/sealer-from-files.js';
import { workerPdfFormReader } from './adapters/pdf/worker-pdf-form-reader.js';
import { every, recurring, type Recurring } from './adapters/periodic.js';
import { purgeIdempotencyKeys } from './adapters/postgres/maintenance.js';
import { postgresBrandingStore } from './adapters/postgres/postgres-branding-store.js';
import { postgresBulkSendStore } from './adapters/postgres/postgres-bulk-send-store.js';
import { postgresEmbeddedSessionStore } from './adapters/postgres/postgres-embedded-session-store.js';
import { postgresExecutedDocumentStore } from './adapters/postgres/postgres-executed-document-store.js';
import { postgresAutocommit, postgresStore, postgresTransact } from './adapters/postgres/postgres-store.js';
import { bulkSendPacing } from './adapters/rate-limit/bulk-send-pacing.js';
import { randomIds, sixDigitCode } from './adapters/system.js';
import { brandingUseCases } from './application/branding.js';
import { createBulkSend, getBulkSend } from './application/bulk-sends.js';
import { processBulkRows } from './application/bulk-send-worker.js';
import type { Deps } from './application/deps.js';
import { embeddedUseCases } from './application/embedded-signing.js';
import { useCases, type UseCases } from './application/use-cases.js';
import type { Config } from './config.js';
import type { RemindPolicy } from './domain/signature-request.js';
import { DEFAULT_AUTH_POLICY, type AuthPolicy } from './domain/signer-authentication.js';
import { migrationsDir } from './migrate.js';
import { systemClock, type Clock } from '@esign/contracts';
import type { CodeHasher } from './ports/code-hasher.js';
import type { DocumentSealer } from './ports/document-sealer.js';
import type { Ids } from './ports/ids.js';
import type { PdfFormReader } from './ports/pdf-form-reader.js';
import type { SendAllowance } from './ports/send-allowance.js';

/** 30 days: the default lifetime of an Execution URL (`EXECUTION_URL_LIFETIME_DAYS`). */
export const DEFAULT_LINK_LIFETIME_MS = 30 * 86_400_000;

export interface RequestsAppOptions {
  /** Paces bulk-send rows by the token's money-costing bucket (ADR 2201); absent: not paced (limits off). */
  readonly sendAllowance?: SendAllowance;
  readonly pool: DatabasePool;
  readonly logger: Logger;
  readonly readiness: readonly ReadinessCheck[];
  readonly publicBaseUrl: string;
  /** The gateway's public key, for the principal it forwards. */
  readonly gatewayPublicKey: KeyObject;
  readonly signingKeys: readonly SigningKey[];
  readonly idempotencyRetentionHours: number;
  /** The outbox relay's hand-off: events published as their unit of work commits (ADR 2660). */
  readonly handoff?: OutboxHandoff | undefined;
  readonly remindPolicy: RemindPolicy;
  /** How long an Execution URL opens after it was issued (default 30 days; ADR 1321). */
  readonly linkLifetimeMs?: number;
  /** CSP frame-ancestors of the signer pages. */
  readonly frameAncestors?: string;
  /** Proxies in front that append to X-Forwarded-For, for the signer's address in the audit trail. */
  readonly trustedProxyHops?: number;
  readonly clock?: Clock;
  readonly ids?: Ids;
  /** Reads uploaded PDFs; by default in a worker thread under DEFAULT_PDF_READ_LIMITS. */
  readonly pdfReader?: PdfFormReader;
  /** Seals executed documents (ADR 2100); without one, downloads answer 503. */
  readonly sealer: DocumentSealer | null;
  /** Signer authentication's limits (ADR 2001). */
  readonly authPolicy?: AuthPolicy;
  /** Hashes access and one-time codes; by default scrypt at the production cost. */
  readonly codeHasher?: CodeHasher;
  /** Told when a bulk send with rows to make has committed: wakes this replica's worker. */
  readonly bulkRowsWaiting?: () => void;
}

/** Every money-costing limit off: nothing paces bulk sends. */
const ALLOW_EVERY_SEND: SendAllowance = () => TE.right({ _tag: 'Allowed' });

/** How long a signer page's form may be submitted after it was shown. */
export const SIGNING_FORM_TTL_SECONDS = 24 * 3600;

/**
 * Builds the use cases on real adapters and the HTTP app that serves them: the part of the
 * composition root the integration tests run alone, on a pool of their own.
 */
export const createRequestsApp = (
  options: RequestsAppOptions,
): {
  app: Koa<AppState>;
  deps: Deps;
  cases: UseCases;
  /** The bulk-send worker's step (ADR 2201): settles up to `limit` rows, answers how many. */
  processBulkRows: (limit: number, leaseMs: number, concurrency?: number) => TE.TaskEither<never, number>;
} => {
  const storeOptions = {
    idempotencyRetentionHours: options.idempotencyRetentionHours,
    handoff: options.handoff,
  };
  const brandingStore = postgresBrandingStore(options.pool);
  const deps: Deps = {
    store: postgresStore(options.pool, storeOptions),
    transact: postgresTransact(options.pool, storeOptions),
    autocommit: postgresAutocommit(options.pool, storeOptions),
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    urlSigner: hmacUrlSigner(options.signingKeys),
    pdf: options.pdfReader ?? workerPdfFormReader(),
    htmlPolicy: sanitizeHtmlPolicy,
    pdfRenderer: lazyPdfRenderer,
    formTokens: hmacFormTokens(options.signingKeys, SIGNING_FORM_TTL_SECONDS),
    publicBaseUrl: options.publicBaseUrl,
    remindPolicy: options.remindPolicy,
    executedDocuments: postgresExecutedDocumentStore(options.pool),
    sealer: options.sealer,
    codeHasher: options.codeHasher ?? scryptCodeHasher(),
    authPolicy: options.authPolicy ?? DEFAULT_AUTH_POLICY,
    authTokens: hmacFormTokens(options.signingKeys, (options.authPolicy ?? DEFAULT_AUTH_POLICY).passSeconds),
    oneTimeCode: sixDigitCode,
    linkLifetimeMs: options.linkLifetimeMs ?? DEFAULT_LINK_LIFETIME_MS,
    siteLogo: brandingStore.logo,
  };
  const cases = useCases(deps);
  const embedded = embeddedUseCases({
    ...deps,
    embedded: postgresEmbeddedSessionStore(options.pool),
    embeddedTokens: randomEmbeddedTokens,
  });
  const bulkDeps = {
    ...deps,
    bulkSends: postgresBulkSendStore(options.pool),
    sendAllowance: options.sendAllowance ?? ALLOW_EVERY_SEND,
    rowsWaiting: options.bulkRowsWaiting,
  };
  const app = createRequestsHttpApp({
    logger: options.logger,
    readiness: options.readiness,
    cases,
    embedded,
    branding: brandingUseCases({ ...deps, branding: brandingStore }),
    bulkSends: { createBulkSend: createBulkSend(bulkDeps), getBulkSend: getBulkSend(bulkDeps) },
    gatewayPublicKey: options.gatewayPublicKey,
    publicBaseUrl: options.publicBaseUrl,
    frameAncestors: options.frameAncestors ?? "'none'",
    trustedProxyHops: options.trustedProxyHops ?? 1,
  });
  return { app, deps, cases, processBulkRows: processBulkRows(bulkDeps) };
};

const EXPIRY_BATCH = 100;
/** Executed documents issued per run of the background issuer, and how often it runs. */
const ISSUE_BATCH = 5;
const ISSUE_INTERVAL_MS = 2000;
/** Bulk-send rows per worker run, and how long a claimed row is held. */
const BULK_BATCH = 20;
const BULK_LEASE_MS = 15_000;
/**
 * How soon the worker runs again after a run that settled rows, and after one that found
 * nothing to do (ADR 2680). A bulk send made on this replica wakes it at once; one made on
 * another replica, a paced row come due and a crashed replica's row whose lease ran out
 * wait at most the idle interval.
 */
const BULK_BUSY_MS = 50;
const BULK_IDLE_MS = 1_000;
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
    build: ({ pool, readiness, handoff }) => {
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
      const costly = bulkSendPacing(
        {
          costly: config.RATE_LIMIT_COSTLY,
          costlyTest: config.RATE_LIMIT_COSTLY_TEST,
          redisUrl: config.REDIS_URL,
          keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
          timeoutMs: config.REDIS_TIMEOUT_MS,
          replicas: config.REQUESTS_REPLICAS,
        },
        logger,
        systemClock,
      );
      // The worker is made below, from the app's step; a bulk send committed here wakes it.
      const bulkWorker: Pick<Recurring, 'wake'> = { wake: () => undefined };
      const { app, cases, processBulkRows } = createRequestsApp({
        pool,
        logger,
        readiness,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        gatewayPublicKey: config.PRINCIPAL_PUBLIC_KEY,
        signingKeys: config.URL_SIGNING_KEYS,
        idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
        handoff,
        remindPolicy: {
          minIntervalSeconds: config.REMIND_MIN_INTERVAL_SECONDS,
          maxReminders: config.REMIND_MAX,
        },
        linkLifetimeMs: config.EXECUTION_URL_LIFETIME_DAYS * 86_400_000,
        frameAncestors: config.SIGNING_FRAME_ANCESTORS,
        trustedProxyHops: config.TRUSTED_PROXY_HOPS,
        sealer,
        sendAllowance: costly.allowance,
        bulkRowsWaiting: () => bulkWorker.wake(),
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
      // One batch per run, so a shutdown waits for one batch at most. Back at once while
      // rows settle; otherwise idle until woken or the idle interval passes (ADR 2680).
      const bulk = recurring(
        'bulk sends',
        logger,
        { firstMs: BULK_BUSY_MS, retryMs: BULK_IDLE_MS },
        async () => {
          const settled = E.toUnion(await processBulkRows(BULK_BATCH, BULK_LEASE_MS, BULK_CONCURRENCY)());
          if (settled > 0) logger.debug({ settled }, 'bulk-send rows settled');
          return settled > 0 ? BULK_BUSY_MS : BULK_IDLE_MS;
        },
      );
      bulkWorker.wake = () => bulk.wake();
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
