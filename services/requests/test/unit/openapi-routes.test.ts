// The requests service's public routes and the OpenAPI document name the same operations
// (the gateway forwards /sign… whole, so its table cannot tell).
import assert from 'node:assert/strict';
import { testGatewayKeys } from '@esign/testing';
import Router from '@koa/router';
import { routeCoverage } from '@esign/contracts/openapi';
import type { AppState } from '@esign/platform';
import { mountRoutes } from '../../src/adapters/http/routes.js';
import { mountSigningRoutes } from '../../src/adapters/http/signing/routes.js';
import { mountVerifyRoute } from '../../src/adapters/http/verify-route.js';
import { mountBulkSendRoutes, type BulkSendCases } from '../../src/adapters/http/bulk-send-routes.js';
import type { UseCases } from '../../src/application/use-cases.js';
import type { EmbeddedUseCases } from '../../src/application/embedded-signing.js';
import { mountEmbeddedUrlRoute } from '../../src/adapters/http/embedded-url-route.js';
import { mountBrandingRoutes } from '../../src/adapters/http/branding-routes.js';
import type { BrandingUseCases } from '../../src/application/branding.js';
import { mountSiteSignerRoutes } from '../../src/adapters/http/site-signer-routes.js';
import type { SiteSignerUseCases } from '../../src/application/site-signers.js';

describe('requests: the OpenAPI document covers its public routes, and only them', () => {
  it('documents every route and routes every documented operation', () => {
    const router = new Router<AppState>();
    // Registering routes reads no use case; the handlers would.
    const cases = {} as UseCases & EmbeddedUseCases & BrandingUseCases & SiteSignerUseCases;
    mountRoutes(router, cases, { gatewayPublicKey: testGatewayKeys.publicKey });
    mountEmbeddedUrlRoute(router, cases, { gatewayPublicKey: testGatewayKeys.publicKey });
    mountBrandingRoutes(router, cases, { gatewayPublicKey: testGatewayKeys.publicKey });
    mountSiteSignerRoutes(router, cases, { gatewayPublicKey: testGatewayKeys.publicKey });
    mountVerifyRoute(router, cases);
    mountBulkSendRoutes(router, {} as BulkSendCases, { gatewayPublicKey: testGatewayKeys.publicKey });
    mountSigningRoutes(router, cases, {
      publicBaseUrl: 'http://localhost:8080',
      frameAncestors: "'none'",
      trustedProxyHops: 1,
    });
    assert.deepEqual(routeCoverage(router.stack, ['Requests', 'Contract templates', 'Signer pages']), {
      undocumented: [],
      unserved: [],
    });
  });
});
