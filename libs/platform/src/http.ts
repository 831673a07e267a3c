import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import Router, { type RouterContext } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { problem, PROBLEM_CONTENT_TYPE, type Problem } from '@esign/contracts';
import type { Logger } from './logger.js';
import { HttpProblem, serviceUnavailable } from './problems.js';
import { createMetrics, type Metrics } from './metrics.js';
import { withTimeout } from './timeout.js';

export interface AppState {
  requestId: string;
  log: Logger;
}

export type AppContext = RouterContext<AppState>;

/** A named dependency `/readyz` checks; it throws (or rejects) when not ready. */
export interface ReadinessCheck {
  readonly name: string;
  readonly check: () => Promise<void>;
}

export interface HttpAppOptions {
  readonly service: string;
  readonly logger: Logger;
  readonly readiness: readonly ReadinessCheck[];
  /**
   * Whether an error that reached the top means a dependency cannot be reached: an outage,
   * answered 503 so the client retries, not a bug (500). A service with a database passes
   * `isDatabaseUnavailable` from `@esign/platform/database`; one without, `noOutages`.
   * Required, so that no service forgets it; passed in, so that the HTTP app loads no
   * database library (ADR 2850).
   */
  readonly isOutage: (error: unknown) => boolean;
  /** Largest accepted JSON body; larger is a 413. */
  readonly bodyLimit?: string;
  /** Parse JSON bodies (the gateway streams them instead). */
  readonly parseBodies?: boolean;
  /**
   * Paths whose handlers read the request body themselves, e.g. an OAuth token endpoint,
   * which takes form-encoded bodies and must answer RFC 6749 errors rather than problems.
   */
  readonly rawBodyPaths?: readonly string[];
  readonly metrics?: Metrics;
  /**
   * `/readyz` and `/metrics` are served by `createOpsApp` on a port of their own, not
   * here (the gateway: its main port is public). `/healthz` stays on both.
   */
  readonly separateOps?: boolean;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

/** Accepts the caller's request id when it is sane, else makes one. */
export const requestIdFrom = (header: string | string[] | undefined): string =>
  typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();

export const sendProblem = (ctx: Koa.Context, p: Problem, headers: Record<string, string> = {}): void => {
  ctx.status = p.status;
  ctx.set(headers);
  ctx.type = PROBLEM_CONTENT_TYPE;
  const requestId = (ctx.state as Partial<AppState>).requestId;
  ctx.body = requestId === undefined ? p : { ...p, request_id: requestId };
};

/** Maps errors thrown by koa's own middleware (body parsing, limits) to problems. */
const problemOfHttpError = (status: number, message: string): Problem => {
  switch (status) {
    case 400:
      return problem({
        status,
        code: 'malformed_json',
        title: 'Malformed JSON',
        detail: 'The request body is not valid JSON.',
      });
    case 413:
      return problem({
        status,
        code: 'payload_too_large',
        title: 'Payload too large',
        detail: 'The request body is too large.',
      });
    case 415:
      return problem({
        status,
        code: 'unsupported_media_type',
        title: 'Unsupported media type',
        detail: 'Send the body as JSON with Content-Type: application/json.',
      });
    default:
      return problem({ status, code: `http_${status}`, title: message });
  }
};

const isHttpError = (e: unknown): e is { status: number; expose?: boolean; message: string } =>
  typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number';

/** `isOutage` of a service that has no dependency whose loss is a 503 of its own. */
export const noOutages = (): boolean => false;

/**
 * A koa app with the middleware every service shares, first to last: request id and
 * structured access log, metrics, one error handler speaking problem+json, JSON body
 * parsing with a size limit, health endpoints. Mount the service's router on `router`.
 */
export const createHttpApp = (
  options: HttpAppOptions,
): { app: Koa<AppState>; router: Router<AppState>; metrics: Metrics } => {
  const app = new Koa<AppState>({ proxy: false });
  const router = new Router<AppState>();
  const metrics = options.metrics ?? createMetrics(options.service);

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom(ctx.get(REQUEST_ID_HEADER) || undefined);
    ctx.state.requestId = requestId;
    ctx.state.log = options.logger.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpProblem) {
        sendProblem(ctx, error.problem, { ...error.headers });
      } else if (isHttpError(error) && error.status >= 400 && error.status < 500) {
        sendProblem(ctx, problemOfHttpError(error.status, error.message));
      } else if (options.isOutage(error)) {
        // An outage, not a bug: the client may retry (with the same Idempotency-Key).
        ctx.state.log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'database unavailable',
        );
        const unavailable = serviceUnavailable('The service cannot reach its database; try again shortly.');
        sendProblem(ctx, unavailable.problem, { ...unavailable.headers });
      } else {
        ctx.state.log.error({ err: error }, 'unhandled error');
        sendProblem(
          ctx,
          problem({
            status: 500,
            code: 'internal_error',
            title: 'Internal server error',
            detail: 'Something went wrong on our side.',
          }),
        );
      }
    } finally {
      const route =
        typeof ctx._matchedRoute === 'string'
          ? ctx._matchedRoute
          : ctx.status === 404
            ? '(unmatched)'
            : ctx.path;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observe(ctx.method, route, ctx.status, seconds);
      if (!ctx.path.startsWith('/healthz') && !ctx.path.startsWith('/readyz') && ctx.path !== '/metrics') {
        ctx.state.log.info(
          { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1e4) / 10 },
          'request',
        );
      }
    }
  });

  if (options.parseBodies !== false) {
    const rawBodyPaths = new Set(options.rawBodyPaths ?? []);
    app.use(async (ctx, next) => {
      if (rawBodyPaths.has(ctx.path)) {
        // @koa/bodyparser skips a context so marked.
        Object.assign(ctx, { disableBodyParser: true });
        await next();
        return;
      }
      const hasBody =
        ctx.request.length !== undefined ? ctx.request.length > 0 : ctx.get('transfer-encoding') !== '';
      if (hasBody && ['POST', 'PUT', 'PATCH'].includes(ctx.method) && ctx.request.is('json') === false) {
        sendProblem(ctx, problemOfHttpError(415, 'Unsupported media type'));
        return;
      }
      await next();
    });
    app.use(
      bodyParser({
        enableTypes: ['json'],
        jsonLimit: options.bodyLimit ?? '1mb',
        jsonStrict: true,
        encoding: 'utf-8',
      }),
    );
  }

  mountHealth(router, options.service);
  if (options.separateOps !== true) mountOps(router, options.readiness, metrics);

  return { app, router, metrics };
};

const mountHealth = (router: Router<AppState>, service: string): void => {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok', service };
  });
};

const mountOps = (router: Router<AppState>, readiness: readonly ReadinessCheck[], metrics: Metrics): void => {
  router.get('/readyz', async (ctx) => {
    const results = await Promise.all(
      readiness.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), 2000, `${name} did not answer in 2 s`);
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, error instanceof Error ? error.message : 'unavailable'] as const;
        }
      }),
    );
    const ready = results.every(([, status]) => status === 'ok');
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.contentType;
    ctx.body = await metrics.render();
  });
};

/**
 * The operations port of a service whose main port is public (issue #18, L12):
 * `/healthz`, `/readyz` and `/metrics` only, for the kubelet and Prometheus.
 */
export const createOpsApp = (options: {
  readonly service: string;
  readonly readiness: readonly ReadinessCheck[];
  readonly metrics: Metrics;
}): Koa<AppState> => {
  const app = new Koa<AppState>({ proxy: false });
  const router = new Router<AppState>();
  mountHealth(router, options.service);
  mountOps(router, options.readiness, options.metrics);
  app.use(router.routes());
  app.use((ctx) => {
    if (ctx.body === undefined || ctx.body === null)
      sendProblem(ctx, problem({ status: 404, code: 'not_found', title: 'Not found' }));
  });
  return app;
};

/** Mounts the router, then answers anything unmatched with a 404 (or 405) problem. */
export const finishApp = (app: Koa<AppState>, router: Router<AppState>): Koa<AppState> => {
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  app.use((ctx) => {
    if (ctx.status === 405) {
      sendProblem(ctx, problem({ status: 405, code: 'method_not_allowed', title: 'Method not allowed' }), {
        Allow: String(ctx.response.get('Allow')),
      });
    } else if (ctx.body === undefined || ctx.body === null) {
      sendProblem(
        ctx,
        problem({
          status: 404,
          code: 'not_found',
          title: 'Not found',
          detail: `No route for ${ctx.method} ${ctx.path}.`,
        }),
      );
    }
  });
  return app;
};
