// Auth's public routes and the OpenAPI document name the same operations (the gateway
// forwards /v1.1/sessions…, /v1.1/apps…, /v1.1/tokens… whole, so its table cannot tell).
import assert from 'node:assert/strict';
import Router from '@koa/router';
import { routeCoverage } from '@esign/contracts/openapi';
import type { AppState } from '@esign/platform';
import type { Deps } from '../../src/application/deps.js';
import { accountRoutes } from '../../src/adapters/http/account-routes.js';
import { consentRoutes } from '../../src/adapters/http/consent-routes.js';
import { frameOriginRoutes } from '../../src/adapters/http/frame-origin-routes.js';
import { invitationRoutes } from '../../src/adapters/http/invitation-routes.js';
import { jwksRoutes } from '../../src/adapters/http/jwks-routes.js';
import { oauthRoutes } from '../../src/adapters/http/oauth-routes.js';
import { passwordResetRoutes } from '../../src/adapters/http/password-reset-routes.js';
import { selfServiceRoutes } from '../../src/adapters/http/self-service-routes.js';
import { sessionRoutes } from '../../src/adapters/http/session-routes.js';

describe('auth: the OpenAPI document covers its public routes, and only them', () => {
  it('documents every route and routes every documented operation', () => {
    const router = new Router<AppState>();
    // Registering routes reads no dependency; the handlers would.
    const deps = {} as Deps;
    selfServiceRoutes(router, deps, { trustedProxyHops: 0 });
    sessionRoutes(router, deps);
    passwordResetRoutes(router, deps, { trustedProxyHops: 0 });
    oauthRoutes(router, deps, { trustedProxyHops: 0 });
    accountRoutes(router, deps);
    invitationRoutes(router, deps, { trustedProxyHops: 0 });
    consentRoutes(router, deps);
    frameOriginRoutes(router, deps);
    jwksRoutes(router, deps);
    assert.deepEqual(
      routeCoverage(router.stack, ['Sessions', 'Account', 'Developer apps and tokens', 'OAuth']),
      {
        undocumented: [],
        unserved: [],
      },
    );
  });

  it('fails on a route the document lacks', () => {
    const router = new Router<AppState>();
    router.post('/v1.1/apps/:id/rename', () => undefined);
    assert.deepEqual(routeCoverage(router.stack, []).undocumented, ['POST /v1.1/apps/{}/rename']);
  });
});
