import assert from 'node:assert/strict';
import * as TE from 'fp-ts/lib/TaskEither.js';
import request from 'supertest';
import { createDatabasePool, type DatabasePool } from '@esign/platform/database';
import { startTcpProxy, testLogger, type TestDatabase } from '@esign/testing';
import { postgresWebhookEndpointStore } from '../../src/adapters/postgres/postgres-webhook-endpoint-store.js';
import { webhookEventConsumer } from '../../src/adapters/amqp/webhook-event-consumer.js';
import { testSealer } from '../support/webhooks.js';
import { recordingRouting } from '../support/webhook-fakes.js';
import { SITE, webhookApiApp, webhookApiFixture } from '../support/webhook-api-fixture.js';

describe('webhook API: /v1.1/sites/:id/webhooks (broker and database outages)', function () {
  const { ctx } = webhookApiFixture('webhook_api_outages');
  let database: TestDatabase;
  let pool: DatabasePool;
  let principal: string;
  before(() => {
    ({ database, pool, principal } = ctx);
  });

  it('creates nothing and answers 503 when the broker cannot route the Site’s events (ADR 2690)', async () => {
    const endpoints = postgresWebhookEndpointStore(pool, testSealer);
    // The real consumer, never connected: its routing refuses as it does while the broker is away.
    const consumer = webhookEventConsumer({
      prefix: 'unused',
      logger: testLogger('webhook-api'),
      retryDelaysMs: [],
      prefetch: 1,
      fanOut: () => TE.right({ _tag: 'FannedOut', deliveries: 0 }),
      sitesWithEndpoints: endpoints.sitesWithEndpoints,
      bindTimeoutMs: 100,
    });
    const app = webhookApiApp(endpoints, consumer.routing);
    const before = await endpoints.list(SITE, { page: 1, perPage: 100 })();
    const answer = await request(app.callback())
      .post(`/v1.1/sites/${SITE}/webhooks`)
      .set('x-esign-principal', principal)
      .send({
        url: 'https://hooks.acme.example/routing',
        event_types: ['request.sent'],
        alert_email: 'ops@acme.example',
      });
    assert.equal(answer.status, 503, answer.text);
    assert.match(answer.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(answer.headers['retry-after'], '5');
    assert.equal(answer.body.code, 'service_unavailable');
    assert.deepEqual(await endpoints.list(SITE, { page: 1, perPage: 100 })(), before, 'nothing written');
  });

  it('answers a database outage with the webhook API’s 503, as a problem', async () => {
    const url = new URL(database.url);
    const proxy = await startTcpProxy(Number(url.port || 5432), url.hostname);
    url.host = `127.0.0.1:${proxy.port}`;
    const cutPool = await createDatabasePool(url.toString());
    const app = webhookApiApp(postgresWebhookEndpointStore(cutPool, testSealer), recordingRouting().routing);
    proxy.cut();
    try {
      const answer = await request(app.callback())
        .get(`/v1.1/sites/${SITE}/webhooks`)
        .set('x-esign-principal', principal);
      assert.equal(answer.status, 503);
      assert.match(answer.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.equal(answer.headers['retry-after'], '1');
      assert.equal(answer.body.code, 'service_unavailable');
      assert.equal(answer.body.detail, 'The webhook store is unavailable; try again shortly.');
    } finally {
      await cutPool.end().catch(() => undefined);
      await proxy.close();
    }
  });
});
