import type Koa from 'koa';
import { OAUTH_REVOKE_PATH, OAUTH_TOKEN_PATH } from '@esign/contracts';
import {
  createHttpApp,
  finishApp,
  type AppState,
  type Logger,
  type Metrics,
  type ReadinessCheck,
} from '@esign/platform';
import { isDatabaseUnavailable } from '@esign/platform/database';
import type { Deps } from '../../application/deps.js';
import { accountRoutes } from './account-routes.js';
import { consentRoutes } from './consent-routes.js';
import { frameOriginRoutes } from './frame-origin-routes.js';
import { internalRoutes } from './internal-routes.js';
import { invitationRoutes } from './invitation-routes.js';
import { jwksRoutes } from './jwks-routes.js';
import { oauthRoutes } from './oauth-routes.js';
import { passwordResetRoutes } from './password-reset-routes.js';
import { selfServiceRoutes } from './self-service-routes.js';
import { sessionRoutes } from './session-routes.js';

/** Auth's HTTP face: self-service API, OAuth token endpoint, JWKS and introspection. */
export const createAuthHttpApp = (options: {
  readonly deps: Deps;
  readonly logger: Logger;
  readonly readiness: readonly ReadinessCheck[];
  readonly introspectionSecret: string;
  /** Proxies in front that append to X-Forwarded-For (the gateway is one): for per-client limits. */
  readonly trustedProxyHops?: number;
  /** The registry /metrics serves: the platform's (`startService`); by default one of the app's own. */
  readonly metrics?: Metrics;
}): Koa<AppState> => {
  const proxies = { trustedProxyHops: options.trustedProxyHops ?? 1 };
  const { app, router } = createHttpApp({
    service: 'auth',
    logger: options.logger,
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    readiness: options.readiness,
    isOutage: isDatabaseUnavailable,
    // RFC 6749 token requests are form-encoded, and their errors are not problems.
    rawBodyPaths: [OAUTH_TOKEN_PATH, OAUTH_REVOKE_PATH],
  });
  // Answers here carry sessions, secrets and tokens: no cache may keep them (the JWKS
  // route overrides this).
  app.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  selfServiceRoutes(router, options.deps, proxies);
  // After them: `/v1.1/sessions/current` is theirs, not a session id.
  sessionRoutes(router, options.deps);
  passwordResetRoutes(router, options.deps, proxies);
  accountRoutes(router, options.deps);
  invitationRoutes(router, options.deps, proxies);
  frameOriginRoutes(router, options.deps);
  oauthRoutes(router, options.deps, proxies);
  consentRoutes(router, options.deps);
  jwksRoutes(router, options.deps);
  internalRoutes(router, options.deps, options.introspectionSecret);
  return finishApp(app, router);
};
