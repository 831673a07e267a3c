import type { KeyObject } from 'node:crypto';
import {
  scryptHasher,
  createHttpApp,
  finishApp,
  type AppState,
  type DatabasePool,
  type Logger,
  type ReadinessCheck,
} from '@esign/platform';
import type Koa from 'koa';
import { hmacUrlSigner, type SigningKey } from './adapters/crypto/hmac-url-signer.js';
import { hmacFormTokens } from './adapters/crypto/hmac-form-tokens.js';
import { randomEmbeddedTokens } from './adapters/crypto/random-embedded-tokens.js';
import { mountBrandingRoutes } from './adapters/http/branding-routes.js';
import { mountEmbeddedUrlRoute } from './adapters/http/embedded-url-route.js';
import { mountRoutes } from './adapters/http/routes.js';
import { mountBulkSendRoutes } from './adapters/http/bulk-send-routes.js';
import { postgresBulkSendStore } from './adapters/postgres/postgres-bulk-send-store.js';
import { createBulkSend, getBulkSend, processBulkRows } from './application/bulk-sends.js';
import type { SendAllowance } from './ports/send-allowance.js';
import { postgresBrandingStore } from './adapters/postgres/postgres-branding-store.js';
import { postgresEmbeddedSessionStore } from './adapters/postgres/postgres-embedded-session-store.js';
import { brandingUseCases } from './application/branding.js';
import { embeddedUseCases } from './application/embedded-signing.js';
import { mountVerifyRoute, VERIFY_PATH } from './adapters/http/verify-route.js';
import { mountSigningRoutes, SIGNING_FORM_PATHS } from './adapters/http/signing/routes.js';
import { sanitizeHtmlPolicy } from './adapters/html/sanitize-html-policy.js';
import { lazyPdfRenderer } from './adapters/pdf/lazy-pdf-renderer.js';
import { workerPdfFormReader } from './adapters/pdf/worker-pdf-form-reader.js';
import { postgresExecutedDocumentStore } from './adapters/postgres/postgres-executed-document-store.js';
import { postgresStore, postgresTransact } from './adapters/postgres/postgres-store.js';
import { randomIds, sixDigitCode, systemClock } from './adapters/system.js';
import { DEFAULT_AUTH_POLICY, type AuthPolicy } from './domain/signer-authentication.js';
import type { CodeHasher } from './ports/code-hasher.js';
import type { Deps } from './application/deps.js';
import { useCases, type UseCases } from './application/use-cases.js';
import type { RemindPolicy } from './domain/signature-request.js';
import type { Clock } from './ports/clock.js';
import type { DocumentSealer } from './ports/document-sealer.js';
import type { Ids } from './ports/ids.js';
import type { PdfFormReader } from './ports/pdf-form-reader.js';

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
}

/** Every money-costing limit off: nothing paces bulk sends. */
const ALLOW_EVERY_SEND: SendAllowance = () => Promise.resolve({ _tag: 'Allowed' });

/** How long a signer page's form may be submitted after it was shown. */
export const SIGNING_FORM_TTL_SECONDS = 24 * 3600;

/** Builds the use cases on real adapters and the HTTP app that serves them. */
export const createRequestsApp = (
  options: RequestsAppOptions,
): {
  app: Koa<AppState>;
  deps: Deps;
  cases: UseCases;
  /** The bulk-send worker's step (ADR 2201): settles up to `limit` rows, answers how many. */
  processBulkRows: (limit: number, leaseMs: number, concurrency?: number) => Promise<number>;
} => {
  const storeOptions = { idempotencyRetentionHours: options.idempotencyRetentionHours };
  const brandingStore = postgresBrandingStore(options.pool);
  const deps: Deps = {
    store: postgresStore(options.pool, storeOptions),
    transact: postgresTransact(options.pool, storeOptions),
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
    codeHasher: options.codeHasher ?? scryptHasher(),
    authPolicy: options.authPolicy ?? DEFAULT_AUTH_POLICY,
    authTokens: hmacFormTokens(options.signingKeys, (options.authPolicy ?? DEFAULT_AUTH_POLICY).passSeconds),
    oneTimeCode: sixDigitCode,
    linkLifetimeMs: options.linkLifetimeMs ?? DEFAULT_LINK_LIFETIME_MS,
    siteLogo: (siteId, sha256) => brandingStore.logo(siteId, sha256)(),
  };
  const cases = useCases(deps);
  const { app, router } = createHttpApp({
    service: 'requests',
    logger: options.logger,
    readiness: options.readiness,
    // The signer pages post HTML forms, which their own handlers read.
    rawBodyPaths: [...SIGNING_FORM_PATHS, VERIFY_PATH],
  });
  const embedded = embeddedUseCases({
    ...deps,
    embedded: postgresEmbeddedSessionStore(options.pool),
    embeddedTokens: randomEmbeddedTokens,
  });
  mountRoutes(router, cases, { gatewayPublicKey: options.gatewayPublicKey });
  mountEmbeddedUrlRoute(router, embedded, { gatewayPublicKey: options.gatewayPublicKey });
  mountBrandingRoutes(router, brandingUseCases({ ...deps, branding: brandingStore }), {
    gatewayPublicKey: options.gatewayPublicKey,
  });
  const bulkDeps = {
    ...deps,
    bulkSends: postgresBulkSendStore(options.pool),
    sendAllowance: options.sendAllowance ?? ALLOW_EVERY_SEND,
  };
  mountBulkSendRoutes(
    router,
    { createBulkSend: createBulkSend(bulkDeps), getBulkSend: getBulkSend(bulkDeps) },
    { gatewayPublicKey: options.gatewayPublicKey },
  );
  mountVerifyRoute(router, cases);
  mountSigningRoutes(
    router,
    { ...cases, ...embedded },
    {
      publicBaseUrl: options.publicBaseUrl,
      frameAncestors: options.frameAncestors ?? "'none'",
      trustedProxyHops: options.trustedProxyHops ?? 1,
    },
  );
  return { app: finishApp(app, router), deps, cases, processBulkRows: processBulkRows(bulkDeps) };
};
