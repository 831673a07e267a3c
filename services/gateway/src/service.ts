import * as TE from 'fp-ts/lib/TaskEither.js';
import { Pool } from 'undici';
import type Koa from 'koa';
import { systemClock, type Clock } from '@esign/contracts';
import {
  signPrincipal,
  createHttpApp,
  noOutages,
  createOpsApp,
  type AppState,
  type Logger,
  type ReadinessCheck,
} from '@esign/platform';
import { GATEWAY_ROUTES, routeMatcher, type RouteSpec, type Upstream } from './domain/route-table.js';
import type { RatePolicy } from './domain/token-bucket.js';
import { admit, type RatePolicies } from './application/admit.js';
import { authenticate } from './application/authenticate.js';
import { cachedLookup } from './application/cached-lookup.js';
import { resolvePrincipal } from './application/resolve-principal.js';
import { joseAccessTokenVerifier } from './adapters/jose/jose-access-token-verifier.js';
import { httpTokenIntrospector } from './adapters/http/http-token-introspector.js';
import { mountApiDocs } from './adapters/http/api-docs-routes.js';
import { mountOAuthDiscovery } from './adapters/http/oauth-discovery-routes.js';
import { gatewayMiddleware } from './adapters/http/gateway-middleware.js';
import { newWebCallerSecret, socketPeer, webCallerPeer } from './adapters/http/web-caller.js';
import { upstreamProxy } from './adapters/http/upstream-proxy.js';
import { createRateLimiter } from './adapters/redis/create-rate-limiter.js';
import type { Config, Rate } from './config.js';
import { createWebApp } from '@esign/web';

export interface GatewayOverrides {
  /** The clock of caches and rate limits (tests move it by hand). */
  readonly clock?: Clock;
  readonly routes?: readonly RouteSpec[];
  /** The web application's secret (tests name it to play the web application's calls). */
  readonly webCallerSecret?: string;
}

export interface Gateway {
  readonly app: Koa<AppState>;
  /** `/healthz`, `/readyz`, `/metrics` for the kubelet and Prometheus, on OPS_PORT. */
  readonly opsApp: Koa<AppState>;
  /** Closes every upstream pool (after the server has drained). */
  readonly close: () => Promise<void>;
}

/** Bounds memory whatever the number of callers: entries past these are swept or evicted. */
const MAX_CACHED_TOKENS = 100_000;

const policy = (name: string, rate: Rate | null): RatePolicy | undefined =>
  rate === null ? undefined : { name, quota: rate.quota, windowSeconds: rate.windowSeconds };

const basePathOf = (url: string): string => new URL(url).pathname.replace(/\/+$/, '');

/**
 * The composition root of the gateway, shared by `main.ts` and the tests: builds the
 * adapters and wires the use cases. No database, so not over the platform's `startService`.
 */
export const startGatewayService = (
  config: Config,
  logger: Logger,
  overrides: GatewayOverrides = {},
): Gateway => {
  const clock = overrides.clock ?? systemClock;
  // The platform's buckets count in milliseconds.
  const now = () => clock.now().getTime();
  const pool = (url: string, connections: number) =>
    new Pool(new URL(url).origin, {
      connections,
      connectTimeout: config.UPSTREAM_CONNECT_TIMEOUT_MS,
      headersTimeout: config.UPSTREAM_TIMEOUT_MS,
      bodyTimeout: config.UPSTREAM_BODY_TIMEOUT_MS,
      keepAliveTimeout: 30_000,
    });
  const pools: Record<Upstream, Pool> & { introspection: Pool } = {
    auth: pool(config.AUTH_URL, config.UPSTREAM_CONNECTIONS),
    requests: pool(config.REQUESTS_URL, config.UPSTREAM_CONNECTIONS),
    notifier: pool(config.NOTIFIER_URL, config.UPSTREAM_CONNECTIONS),
    // Its own pool, so a flood of token requests proxied to auth cannot starve introspection.
    introspection: pool(config.AUTH_URL, 32),
  };
  const basePaths: Record<Upstream, string> = {
    auth: basePathOf(config.AUTH_URL),
    requests: basePathOf(config.REQUESTS_URL),
    notifier: basePathOf(config.NOTIFIER_URL),
  };

  const verifySignature = joseAccessTokenVerifier({
    authUrl: config.AUTH_URL,
    issuer: config.TOKEN_ISSUER,
    cooldownMs: config.JWKS_COOLDOWN_SECONDS * 1000,
    cacheMaxAgeMs: config.JWKS_CACHE_SECONDS * 1000,
    timeoutMs: config.JWKS_TIMEOUT_MS,
    logger,
  });
  // A token's signature, issuer, audience and type never change: a verdict is reused for
  // as long as introspection answers are (so a key withdrawn from the JWKS stops working
  // within the same bound as a revocation). Expiry is checked on every call regardless.
  const cacheTtlMs = config.INTROSPECTION_CACHE_SECONDS * 1000;
  const verify = cachedLookup(verifySignature, { ttlMs: cacheTtlMs, clock, maxEntries: MAX_CACHED_TOKENS });
  const introspect = httpTokenIntrospector({
    pool: pools.introspection,
    basePath: basePaths.auth,
    secret: config.INTROSPECTION_SECRET,
    timeoutMs: config.INTROSPECTION_TIMEOUT_MS,
    logger,
  });
  const resolve = cachedLookup(
    resolvePrincipal({
      introspect,
      sign: (audience, principal) =>
        TE.rightTask(() => signPrincipal(config.PRINCIPAL_SIGNING_KEY, audience, principal)),
    }),
    { ttlMs: cacheTtlMs, clock, maxEntries: MAX_CACHED_TOKENS },
  );
  const policies: RatePolicies = {
    ...withPolicy('token', policy('token', config.RATE_LIMIT_TOKEN)),
    ...withPolicy('site', policy('site', config.RATE_LIMIT_SITE)),
    ...withPolicy('costly', policy('costly', config.RATE_LIMIT_COSTLY)),
    ...withPolicy('costlyTest', policy('costly_test', config.RATE_LIMIT_COSTLY_TEST)),
    ...withPolicy('anonymous', policy('anonymous', config.RATE_LIMIT_ANONYMOUS)),
  };
  const rateLimiter = createRateLimiter(
    {
      redisUrl: config.REDIS_URL,
      keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
      timeoutMs: config.REDIS_TIMEOUT_MS,
      replicas: config.GATEWAY_REPLICAS,
    },
    {
      now,
      logger,
      enabled: Object.keys(policies).length > 0,
      // Bounds the fallback's memory whatever the number of callers during a Redis outage.
      maxLocalBuckets: 200_000,
    },
  );
  const admitCall = admit({
    authenticate: authenticate({ verify, resolve, clock }),
    limit: rateLimiter.limit,
    policies,
  });
  // The web application's calls name the browser they are made for (ADR 3010).
  const webCallerSecret = overrides.webCallerSecret ?? newWebCallerSecret();
  const peerOf = webCallerPeer(webCallerSecret);
  const proxy = upstreamProxy({
    upstreams: {
      auth: { pool: pools.auth, basePath: basePaths.auth },
      requests: { pool: pools.requests, basePath: basePaths.requests },
      notifier: { pool: pools.notifier, basePath: basePaths.notifier },
    },
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    uploadLimitBytes: config.SIGNING_BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    publicProto: new URL(config.PUBLIC_BASE_URL).protocol.replace(':', ''),
    logger,
    peerOf,
  });

  /** A downstream service is ready when its own /healthz answers 200. */
  const ready = (name: Upstream): ReadinessCheck => ({
    name,
    check: async () => {
      const response = await pools[name].request({
        method: 'GET',
        path: `${basePaths[name]}/healthz`,
        signal: AbortSignal.timeout(1500),
      });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`${name} answered ${response.statusCode}`);
    },
  });

  const readiness = [ready('auth'), ready('requests'), ready('notifier')];
  // /readyz and /metrics answer on OPS_PORT only: the main port is the public one (L12).
  const { app, router, metrics } = createHttpApp({
    service: 'gateway',
    logger,
    readiness,
    parseBodies: false,
    separateOps: true,
    // An upstream's outage is the proxy's to answer (503); the gateway has no database.
    isOutage: noOutages,
  });
  const opsApp = createOpsApp({ service: 'gateway', readiness, metrics });
  // A response cut short (an upstream dying mid-body, a client hanging up) reaches koa
  // as an 'error' event; the proxy has logged what matters, and koa's default handler
  // would print a stack trace outside the JSON log.
  app.on('error', (error: unknown) => logger.debug({ err: error }, 'response ended early'));
  mountApiDocs(router, { serverUrl: config.PUBLIC_BASE_URL });
  mountOAuthDiscovery(router, { publicBaseUrl: config.PUBLIC_BASE_URL, consentPath: '/app/oauth/authorize' });
  app.use(router.routes());
  // The web application (/app/…): one more client of the API, calling this gateway's own address.
  app.use(
    createWebApp({
      apiBaseUrl: `http://127.0.0.1:${config.PORT}`,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      caller: {
        secret: webCallerSecret,
        of: (ctx) => ({
          peer: socketPeer(ctx.req),
          forwardedFor: config.TRUST_PROXY ? ctx.get('x-forwarded-for') || undefined : undefined,
          // Auth records it with a session begun on the sign-in form (ADR 3100).
          userAgent: ctx.get('user-agent') || undefined,
        }),
      },
    }),
  );
  app.use(
    gatewayMiddleware({
      match: routeMatcher(overrides.routes ?? GATEWAY_ROUTES),
      admit: admitCall,
      proxy,
      trustProxy: config.TRUST_PROXY,
      peerOf,
    }),
  );

  return {
    app,
    opsApp,
    close: async () => {
      await Promise.all([...Object.values(pools).map((pool) => pool.close()), rateLimiter.close()]);
    },
  };
};

const withPolicy = <K extends keyof RatePolicies>(key: K, value: RatePolicy | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Pick<RatePolicies, K>;
