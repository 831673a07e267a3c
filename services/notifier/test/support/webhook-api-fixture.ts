import request from 'supertest';
import type Koa from 'koa';
import { createHttpApp, finishApp, type AppState } from '@esign/platform';
import {
  createDatabasePool,
  isDatabaseUnavailable,
  migrate,
  type DatabasePool,
} from '@esign/platform/database';
import { createTestDatabase, testGatewayKeys, testLogger, type TestDatabase } from '@esign/testing';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import { migrationsDir } from '../../src/migrate.js';
import { mountWebhookRoutes } from '../../src/adapters/http/webhook-routes.js';
import { postgresWebhookEndpointStore } from '../../src/adapters/postgres/postgres-webhook-endpoint-store.js';
import { destinationPolicy, type Resolver } from '../../src/adapters/webhook-http/destination-policy.js';
import { webhookUseCases } from '../../src/application/webhooks/webhook-use-cases.js';
import { webhookRandom } from '../../src/adapters/crypto/webhook-secrets.js';
import { testSealer } from './webhooks.js';
import { recordingRouting } from './webhook-fakes.js';

export const dns: Resolver = (hostname) => {
  const table: Record<string, string> = {
    'hooks.acme.example': '93.184.215.14',
    'intranet.acme.example': '10.20.30.40',
    'localhost.acme.example': '127.0.0.1',
  };
  const address = table[hostname];
  return address === undefined
    ? Promise.reject(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }))
    : Promise.resolve([{ address, family: 4 as const }]);
};

export const SITE = 7;

export const valid = {
  url: 'https://hooks.acme.example/esign',
  event_types: ['request.completed', 'request.sent'],
  alert_email: 'Ops@Acme.example',
};

/** What the webhook API tests run against, filled in by the fixture's `before`. */
export interface WebhookApiContext {
  database: TestDatabase;
  pool: DatabasePool;
  app: Koa<AppState>;
  /** The gateway's principal for a caller who reaches sites SITE and 8. */
  principal: string;
}

type WebhookDeps = Parameters<typeof webhookUseCases>[0];

/** The notifier's HTTP app with the webhook routes alone, over `endpoints` and `routing`. */
export const webhookApiApp = (
  endpoints: WebhookDeps['endpoints'],
  routing: WebhookDeps['routing'],
): Koa<AppState> => {
  const http = createHttpApp({
    service: 'notifier',
    logger: testLogger('webhook-api'),
    readiness: [],
    isOutage: isDatabaseUnavailable,
  });
  mountWebhookRoutes(
    http.router,
    webhookUseCases({
      endpoints,
      guard: destinationPolicy({ allowHttp: false, allowPrivateAddresses: false, resolve: dns }),
      random: webhookRandom,
      clock: { now: () => new Date() },
      routing,
    }),
    { gatewayPublicKey: testGatewayKeys.publicKey },
  );
  return finishApp(http.app, http.router);
};

/**
 * The webhook API as the notifier serves it (koa app, real Postgres), with the
 * production destination policy (https only, public addresses only) over a test DNS.
 * Registers its `before` and `after` hooks in the calling `describe`.
 */
export const webhookApiFixture = (label = 'webhook_api') => {
  const ctx = {} as WebhookApiContext;

  const call = () => request(ctx.app.callback());
  const asCaller = (r: request.Test) => r.set('x-esign-principal', ctx.principal);
  const create = (body: object = valid, site = SITE) =>
    asCaller(call().post(`/v1.1/sites/${site}/webhooks`).send(body));

  before(async () => {
    ctx.database = await createTestDatabase(label);
    await migrate(ctx.database.url, migrationsDir);
    ctx.pool = await createDatabasePool(ctx.database.url);
    ctx.app = webhookApiApp(postgresWebhookEndpointStore(ctx.pool, testSealer), recordingRouting().routing);
    ctx.principal = await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.notifier, {
      sub: 'user_1',
      token_id: 'tok_1',
      sites: [
        { id: SITE, name: 'Acme Lettings' },
        { id: 8, name: 'Acme Staging' },
      ],
    });
  });

  after(async () => {
    await ctx.pool?.end();
    await ctx.database?.drop();
  });

  return { ctx, call, asCaller, create };
};
