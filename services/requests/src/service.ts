import type { KeyObject } from 'node:crypto';
import type Koa from 'koa';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AppState, Logger, Metrics, ReadinessCheck } from '@esign/platform';
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
import { sealValidityWarning } from './adapters/pdf/signing-identity.js';
import { workerPdfFormReader } from './adapters/pdf/worker-pdf-form-reader.js';
import { postgresBrandingStore } from './adapters/postgres/postgres-branding-store.js';
import { postgresSiteSignerStore } from './adapters/postgres/postgres-site-signer-store.js';
import { postgresBulkSendStore } from './adapters/postgres/postgres-bulk-send-store.js';
import { postgresEmbeddedSessionStore } from './adapters/postgres/postgres-embedded-session-store.js';
import { postgresExecutedDocumentStore } from './adapters/postgres/postgres-executed-document-store.js';
import { postgresAutocommit, postgresStore, postgresTransact } from './adapters/postgres/postgres-store.js';
import { bulkSendPacing } from './adapters/rate-limit/bulk-send-pacing.js';
import { randomIds, sixDigitCode } from './adapters/system.js';
import { brandingUseCases } from './application/branding.js';
import { siteSignerUseCases } from './application/site-signers.js';
import { cancelBulkSend, createBulkSend, getBulkSend, listBulkSends } from './application/bulk-sends.js';
import { cancelBulkSendRequests } from './application/bulk-send-requests-cancel.js';
import { processBulkRows } from './application/bulk-send-worker.js';
import type { Deps } from './application/deps.js';
import { embeddedUseCases } from './application/embedded-signing.js';
import { useCases, type UseCases } from './application/use-cases.js';
import type { Config } from './config.js';
import type { RemindPolicy } from './domain/signature-request.js';
import { DEFAULT_AUTH_POLICY, type AuthPolicy } from './domain/signer-authentication.js';
import { migrationsDir } from './migrate.js';
import { executedDocumentMetrics } from './adapters/metrics/executed-document-metrics.js';
import { BULK_SENDS_CHANNEL, EXECUTED_DOCUMENTS_CHANNEL, startBackgroundWork } from './background.js';
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
  /** The registry /metrics serves; by default one of the app's own. */
  readonly metrics?: Metrics;
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
  /** When the next pending bulk-send row can be claimed (ADR 2910). */
  bulkRowsDueInMs: () => TE.TaskEither<never, number | null>;
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
    siteSigners: siteSignerUseCases({ signers: postgresSiteSignerStore(options.pool) }),
    bulkSends: {
      createBulkSend: createBulkSend(bulkDeps),
      listBulkSends: listBulkSends(bulkDeps),
      cancelBulkSend: cancelBulkSend(bulkDeps),
      getBulkSend: getBulkSend(bulkDeps),
      cancelBulkSendRequests: cancelBulkSendRequests(bulkDeps),
    },
    gatewayPublicKey: options.gatewayPublicKey,
    publicBaseUrl: options.publicBaseUrl,
    frameAncestors: options.frameAncestors ?? "'none'",
    trustedProxyHops: options.trustedProxyHops ?? 1,
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
  });
  return {
    app,
    deps,
    cases,
    processBulkRows: processBulkRows(bulkDeps),
    bulkRowsDueInMs: bulkDeps.bulkSends.nextDueInMs,
  };
};

/**
 * The composition root, on the platform's skeleton (`startService`: migrations, pool,
 * RabbitMQ with the notifier-outcome consumer, outbox relay, readiness and shutdown):
 * builds the app on real adapters and starts what runs beside HTTP (background.ts: expiry
 * sweep, executed-document issuer, bulk-send worker, idempotency-key purge).
 */
export const startRequestsService = (config: Config, logger: Logger): Promise<RunningService> =>
  startService({
    service: 'requests',
    logger,
    databaseUrl: config.DATABASE_URL,
    migrationsDir,
    messaging: { amqpUrl: config.AMQP_URL, prefix: config.AMQP_PREFIX },
    build: ({ pool, readiness, handoff, listening, metrics }) => {
      const documents = executedDocumentMetrics(metrics.registry);
      const sealer = sealerFromFiles(
        {
          certFile: config.PDF_SIGNING_CERT_FILE ?? '',
          keyFile: config.PDF_SIGNING_KEY_FILE ?? '',
          p12File: config.PDF_SIGNING_P12_FILE ?? '',
          passphrase: config.PDF_SIGNING_PASSPHRASE ?? '',
          tsaUrl: config.PDF_SIGNING_TSA_URL ?? '',
        },
        (change) =>
          change._tag === 'Reloaded'
            ? logger.info(
                { not_after: change.validity.notAfter.toISOString() },
                "the seal's certificate files changed: sealing with the new certificate",
              )
            : logger.error(
                { reason: change.reason },
                "the seal's certificate files changed but cannot be read: sealing with the previous certificate",
              ),
      );
      if (sealer === null)
        logger.warn(
          'no PDF signing certificate configured (PDF_SIGNING_CERT_FILE/PDF_SIGNING_KEY_FILE or PDF_SIGNING_P12_FILE): executed documents cannot be issued',
        );
      const validity = sealer?.validity;
      const sealWarning = validity === undefined ? undefined : sealValidityWarning(validity, new Date());
      if (sealWarning !== undefined)
        logger.warn({ not_after: validity?.notAfter.toISOString() }, sealWarning);
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
      let wakeBulk = (): void => undefined;
      const { app, deps, cases, processBulkRows, bulkRowsDueInMs } = createRequestsApp({
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
        sealer: sealer === null ? null : documents.counting(sealer),
        metrics,
        sendAllowance: costly.allowance,
        bulkRowsWaiting: () => wakeBulk(),
        authPolicy: { ...DEFAULT_AUTH_POLICY, smsPerHour: config.SIGNER_SMS_CODES_PER_HOUR },
      });
      const outcomes = notificationOutcomesConsumer({
        prefix: config.AMQP_PREFIX,
        logger,
        record: cases.recordNotificationOutcome,
      });
      const background = startBackgroundWork({
        config,
        logger,
        pool,
        cases,
        processBulkRows,
        bulkRowsDueInMs,
        issuesDueInMs: deps.executedDocuments.nextDueInMs,
        issueFailed: documents.failed,
        listening: listening ?? (() => false),
      });
      wakeBulk = background.wakeBulk;
      return Promise.resolve({
        app,
        consumers: [outcomes],
        // Bulk sends and completions committed on every replica wake this one's workers
        // (ADRs 2910, 2920).
        listen: {
          [BULK_SENDS_CHANNEL]: background.wakeBulk,
          [EXECUTED_DOCUMENTS_CHANNEL]: background.wakeIssuer,
        },
        steps: [background.step, { name: 'redis', run: () => costly.close() }],
      });
    },
  });
