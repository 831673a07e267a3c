import type { KeyObject } from 'node:crypto';
import type Koa from 'koa';
import {
  createHttpApp,
  finishApp,
  type AppState,
  type Logger,
  type Metrics,
  type ReadinessCheck,
} from '@esign/platform';
import { isDatabaseUnavailable } from '@esign/platform/database';
import type { BrandingUseCases } from '../../application/branding.js';
import type { SiteSignerUseCases } from '../../application/site-signers.js';
import type { EmbeddedUseCases } from '../../application/embedded-signing.js';
import type { UseCases } from '../../application/use-cases.js';
import { mountBrandingRoutes } from './branding-routes.js';
import { mountSiteSignerRoutes } from './site-signer-routes.js';
import { mountBulkSendRoutes, type BulkSendCases } from './bulk-send-routes.js';
import { mountEmbeddedUrlRoute } from './embedded-url-route.js';
import { mountRoutes } from './routes.js';
import { mountSigningRoutes, SIGNING_FORM_PATHS } from './signing/routes.js';
import { mountVerifyRoute, VERIFY_PATH } from './verify-route.js';

/**
 * The HTTP app of requests: the API under /v1.1 (requests, embedded URLs, branding, Site
 * signers, bulk sends), the signer pages and the public verification page, over the use
 * cases the composition root (service.ts) built.
 */
export const createRequestsHttpApp = (options: {
  readonly logger: Logger;
  readonly readiness: readonly ReadinessCheck[];
  readonly cases: UseCases;
  readonly embedded: EmbeddedUseCases;
  readonly branding: BrandingUseCases;
  readonly siteSigners: SiteSignerUseCases;
  readonly bulkSends: BulkSendCases;
  /** The gateway's public key, for the principal it forwards. */
  readonly gatewayPublicKey: KeyObject;
  readonly publicBaseUrl: string;
  /** CSP frame-ancestors of the signer pages. */
  readonly frameAncestors: string;
  /** Proxies in front that append to X-Forwarded-For, for the signer's address in the audit trail. */
  readonly trustedProxyHops: number;
  /** The registry /metrics serves: the platform's (`startService`); by default one of the app's own. */
  readonly metrics?: Metrics;
}): Koa<AppState> => {
  const { app, router } = createHttpApp({
    service: 'requests',
    logger: options.logger,
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    readiness: options.readiness,
    isOutage: isDatabaseUnavailable,
    // The signer pages post HTML forms, which their own handlers read.
    rawBodyPaths: [...SIGNING_FORM_PATHS, VERIFY_PATH],
  });
  const principal = { gatewayPublicKey: options.gatewayPublicKey };
  mountRoutes(router, options.cases, principal);
  mountEmbeddedUrlRoute(router, options.embedded, principal);
  mountBrandingRoutes(router, options.branding, principal);
  mountSiteSignerRoutes(router, options.siteSigners, principal);
  mountBulkSendRoutes(router, options.bulkSends, principal);
  mountVerifyRoute(router, options.cases);
  mountSigningRoutes(
    router,
    { ...options.cases, ...options.embedded },
    {
      publicBaseUrl: options.publicBaseUrl,
      frameAncestors: options.frameAncestors,
      trustedProxyHops: options.trustedProxyHops,
    },
  );
  return finishApp(app, router);
};
