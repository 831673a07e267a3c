import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import type { AnyEventEnvelope } from '@esign/contracts';
import { createDatabasePool, db, migrate, sql, type DatabasePool } from '@esign/platform/database';
import { createTestDatabase, type TestDatabase } from '@esign/testing';
import { migrationsDir } from '../../src/migrate.js';
import {
  deliverDueWebhooks,
  type DeliverWebhooksDeps,
} from '../../src/application/webhooks/deliver-due-webhooks.js';
import { fanOutWebhookEvent } from '../../src/application/webhooks/fan-out-webhook-event.js';
import { postgresWebhookDeliveryStore } from '../../src/adapters/postgres/postgres-webhook-delivery-store.js';
import { postgresWebhookEndpointStore } from '../../src/adapters/postgres/postgres-webhook-endpoint-store.js';
import { destinationPolicy, type Resolver } from '../../src/adapters/webhook-http/destination-policy.js';
import { undiciWebhookSender } from '../../src/adapters/webhook-http/undici-webhook-sender.js';
import { MAX_ENDPOINTS_PER_SITE, type WebhookEndpoint } from '../../src/domain/webhook-endpoint.js';
import { hmacWebhookSignature } from '../../src/adapters/crypto/hmac-webhook-signature.js';
import { anEndpoint, testSealer } from './webhooks.js';
import {
  readmeVerifier,
  startWebhookReceiver,
  type VerifyWebhook,
  type WebhookReceiver,
} from './webhook-receiver.js';

const FAST = { baseDelayMs: 20, maxDelayMs: 100, windowMs: 60_000 };
let siteCounter = 100;

/** What the webhook delivery tests run against, filled in by the fixture's `before`. */
export interface WebhookDeliveryContext {
  pool: DatabasePool;
  receiver: WebhookReceiver;
  verifyWebhook: VerifyWebhook;
}

/**
 * The dispatcher's round (claim, sign, send, record) against real Postgres and a local
 * HTTP receiver on 127.0.0.1, with the undici sender and its SSRF guard. Rounds are
 * run by hand, so each test sees exactly the attempts it caused. Registers its `before`
 * and `after` hooks in the calling `describe`.
 */
export const webhookDeliveryFixture = (label = 'webhook_delivery') => {
  const ctx = {} as WebhookDeliveryContext;
  let database: TestDatabase;
  const deliveries = () =>
    postgresWebhookDeliveryStore(ctx.pool, { inboxConsumer: 'notifier-webhooks', sealer: testSealer });
  const endpoints = () => postgresWebhookEndpointStore(ctx.pool, testSealer);

  /** DNS as the tests want it: names map to addresses; a name may answer differently on each lookup. */
  const answers = new Map<string, string[]>();
  const resolve: Resolver = (hostname) => {
    const queue = answers.get(hostname);
    if (queue === undefined || queue.length === 0)
      return Promise.reject(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const address = queue.length > 1 ? queue.shift()! : queue[0]!;
    return Promise.resolve([{ address, family: 4 as const }]);
  };

  // Time-outs a busy 2-core machine meets with margin: a local receiver can take seconds to
  // answer there. The one test of a silent endpoint shortens the response time-out itself.
  const dispatcher = (
    overrides: Partial<DeliverWebhooksDeps> & { allowPrivate?: boolean; responseTimeoutMs?: number } = {},
  ) => {
    const policy = destinationPolicy({
      allowHttp: true,
      allowPrivateAddresses: overrides.allowPrivate ?? true,
      resolve,
    });
    const round = deliverDueWebhooks({
      signature: hmacWebhookSignature,
      deliveries: deliveries(),
      sender: undiciWebhookSender({
        policy,
        connectTimeoutMs: 10_000,
        responseTimeoutMs: overrides.responseTimeoutMs ?? 10_000,
      }),
      clock: { now: () => new Date() },
      random: { jitter: () => 0.5 },
      policy: FAST,
      disableAfterMs: 3 * 86_400_000,
      leaseMs: 5_000,
      concurrency: 8,
      ...overrides,
    });
    return TE.toUnion(round);
  };

  const register = async (overrides: Partial<WebhookEndpoint> = {}) => {
    const endpoint = anEndpoint({ siteId: ++siteCounter, ...overrides });
    const created = await endpoints().create(endpoint, MAX_ENDPOINTS_PER_SITE)();
    assert.ok(E.isRight(created));
    return endpoint;
  };

  const event = (siteId: number, type = 'request.completed'): AnyEventEnvelope => ({
    id: randomUUID(),
    type,
    occurred_at: new Date().toISOString(),
    site_id: siteId,
    aggregate_id: 'rq_1',
    data: { request_id: 'rq_1', state: 'completed' },
  });

  const fanOut = (e: AnyEventEnvelope) =>
    TE.toUnion(fanOutWebhookEvent({ deliveries: deliveries(), wake: () => undefined })(e))();

  /** The endpoint as the store reads it back. */
  const stored = (endpoint: WebhookEndpoint) => TE.toUnion(endpoints().get(endpoint.siteId, endpoint.id))();

  const Row = t.type({
    id: t.string,
    status: t.string,
    attempts: t.number,
    response_status: t.union([t.number, t.null]),
    response_excerpt: t.union([t.string, t.null]),
    last_error: t.union([t.string, t.null]),
  });
  const deliveryOf = (endpointId: string) =>
    db.one(
      ctx.pool,
      Row,
      sql.unsafe`SELECT id, status, attempts, response_status, response_excerpt, last_error
                 FROM webhook_deliveries WHERE endpoint_id = ${endpointId}`,
    );
  const attemptsOf = (deliveryId: string) =>
    db.any(
      ctx.pool,
      t.type({
        attempt: t.number,
        outcome: t.union([t.string, t.null]),
        response_status: t.union([t.number, t.null]),
        error: t.union([t.string, t.null]),
      }),
      sql.unsafe`SELECT attempt, outcome, response_status, error FROM webhook_delivery_attempts
                 WHERE delivery_id = ${deliveryId} ORDER BY attempt`,
    );
  /** Runs rounds until the endpoint's delivery is settled (waiting out back-off), or fails. */
  const untilSettled = async (round: () => Promise<unknown>, endpointId: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await round();
      const row = await deliveryOf(endpointId);
      if (row.status === 'delivered' || row.status === 'failed') return row;
      if (Date.now() > deadline) throw new Error(`delivery still ${row.status}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  before(async () => {
    database = await createTestDatabase(label);
    await migrate(database.url, migrationsDir);
    ctx.pool = await createDatabasePool(database.url);
    ctx.receiver = await startWebhookReceiver();
    ({ verifyWebhook: ctx.verifyWebhook } = await readmeVerifier());
  });

  after(async () => {
    await ctx.receiver?.close();
    await ctx.pool?.end();
    await database?.drop();
  });

  return {
    ctx,
    deliveries,
    answers,
    resolve,
    dispatcher,
    register,
    event,
    fanOut,
    stored,
    deliveryOf,
    attemptsOf,
    untilSettled,
  };
};
