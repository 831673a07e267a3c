import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqplib, { type ChannelModel } from 'amqplib';
import request from 'supertest';
import { consumerQueues, siteRoutingKey, topologyNames } from '@esign/platform/messaging';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  eventually,
  infra,
  redisKeyPrefix,
  redisUrl,
  testLogger,
  type TestDatabase,
  testGatewayKeys,
} from '@esign/testing';
import { WebhookDeliveryDetail, WebhookDeliveryList, WebhookEndpointWithSecret } from '@esign/contracts';
import { decoded } from '../support/webhooks.js';
import { parseConfig } from '../../src/config.js';
import { startNotifierService, type RunningNotifier } from '../../src/service.js';
import { CONSUMER_NAME } from '../../src/adapters/amqp/notification-consumer.js';
import { WEBHOOK_CONSUMER_NAME } from '../../src/adapters/amqp/webhook-event-consumer.js';
import {
  readmeVerifier,
  startWebhookReceiver,
  type VerifyWebhook,
  type WebhookReceiver,
} from '../support/webhook-receiver.js';
import { untilQueueDeclared } from '../support/queues.js';

const SITE = 41;

/**
 * The notifier as it runs (config → composition root) with webhooks: events published
 * on the exchange reach a client's endpoint on 127.0.0.1, managed through the API.
 * Private addresses and http are allowed here (the receiver is local); the default
 * refusing them is shown in webhook-api and webhook-delivery tests.
 */
describe('notifier: webhooks end to end', function () {
  let database: TestDatabase;
  let prefix: string;
  let notifier: RunningNotifier;
  let receiver: WebhookReceiver;
  let publisher: ChannelModel;
  let verifyWebhook: VerifyWebhook;
  let principal: string;
  let outbox: string;
  const names = () => topologyNames(prefix);

  const api = () => request(notifier.app.callback());
  const publish = async (type: string, data: object = { request_id: 'rq_9' }) => {
    const id = randomUUID();
    const body = {
      id,
      type,
      occurred_at: new Date().toISOString(),
      site_id: SITE,
      aggregate_id: 'rq_9',
      data,
    };
    const ch = await publisher.createConfirmChannel();
    // Routed as the outbox routes it: by type, and by Site and type (ADR 2690).
    ch.publish(names().events, type, Buffer.from(JSON.stringify(body)), {
      persistent: true,
      messageId: id,
      BCC: siteRoutingKey(SITE, type),
    });
    await ch.waitForConfirms();
    await ch.close();
    return body;
  };
  const register = async (path: string, eventTypes: string[]) => {
    const r = await api()
      .post(`/v1.1/sites/${SITE}/webhooks`)
      .set('x-esign-principal', principal)
      .send({ url: receiver.url(path), event_types: eventTypes, alert_email: 'ops@client.example' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body as { id: string; secret: string };
  };
  const receivedEvent = (path: string, eventId: string) =>
    eventually(() => Promise.resolve(receiver.on(path).find((r) => r.body.includes(eventId))), 10_000);

  before(async () => {
    database = await createTestDatabase('webhooks_e2e');
    prefix = amqpPrefix('webhooks-e2e');
    receiver = await startWebhookReceiver();
    outbox = await mkdtemp(join(tmpdir(), 'webhooks-e2e-'));
    ({ verifyWebhook } = await readmeVerifier());
    const config = parseConfig({
      DATABASE_URL: database.url,
      AMQP_URL: infra().amqpUrl,
      AMQP_PREFIX: prefix,
      PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
      KEY_ENCRYPTION_KEYS: 'k1:a-test-key-encryption-secret-of-32-characters',
      NOTIFIER_OUTBOX_DIR: outbox,
      NOTIFIER_RETRY_DELAYS_MS: '50,100',
      // Quotas of this run's own: runs on one machine must not spend each other's.
      REDIS_URL: redisUrl(),
      NOTIFIER_QUOTA_KEY_PREFIX: redisKeyPrefix('webhooks-e2e-quota'),
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOKS_RETRY_BASE_DELAY_MS: '50',
      WEBHOOKS_RETRY_MAX_DELAY_MS: '200',
      WEBHOOKS_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'silent',
    });
    notifier = await startNotifierService(config, testLogger('webhooks-e2e'));
    principal = await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.notifier, {
      sub: 'u',
      token_id: 't',
      sites: [{ id: SITE, name: 'Client Co' }],
    });
    publisher = await amqplib.connect(infra().amqpUrl);
    await untilQueueDeclared(publisher, `${prefix}.${WEBHOOK_CONSUMER_NAME}`);
  });

  after(async () => {
    for (const step of notifier?.steps ?? []) await step.run();
    await publisher?.close();
    await receiver?.close();
    const steps = [50, 100].length;
    const queues = [CONSUMER_NAME, WEBHOOK_CONSUMER_NAME].flatMap((name) => {
      const q = consumerQueues(prefix, name, steps);
      return [q.main, q.parked, ...q.retries];
    });
    await deleteAmqpObjects({ queues, exchanges: [names().events, names().deadLetter] });
    await database?.drop();
    if (outbox !== undefined) await rm(outbox, { recursive: true, force: true });
  });

  it('delivers the subscribed request events, verifiable with the README snippet; never notification.* events', async () => {
    const endpoint = await register('/all', ['request.signed', 'request.completed', 'request.declined']);
    const signed = await publish('request.signed', {
      request_id: 'rq_9',
      signer: { signer_id: 'a@client.example' },
    });
    await publish('notification.delivered', { request_id: 'rq_9' });
    await publish('request.expired');
    const completed = await publish('request.completed');

    for (const sent of [signed, completed]) {
      const got = await receivedEvent('/all', sent.id);
      assert.equal(verifyWebhook(endpoint.secret, got.headers['esign-signature'] as string, got.body), true);
      assert.deepEqual(JSON.parse(got.body), {
        id: sent.id,
        type: sent.type,
        created_at: sent.occurred_at,
        site_id: SITE,
        data: sent.data,
      });
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(
      receiver
        .on('/all')
        .map((r) => (JSON.parse(r.body) as { type: string }).type)
        .sort(),
      ['request.completed', 'request.signed'],
    );
  });

  it('retries a receiver that answers 500, then shows the delivery and its attempts in the API', async () => {
    const endpoint = await register('/flaky', ['request.sent']);
    receiver.script('/flaky', { status: 500, body: 'database is down' });
    const sent = await publish('request.sent');
    await eventually(() => Promise.resolve(receiver.on('/flaky').length >= 2 ? true : undefined), 10_000);
    const both = receiver.on('/flaky');
    assert.ok(
      both.every((r) => verifyWebhook(endpoint.secret, r.headers['esign-signature'] as string, r.body)),
    );

    const base = `/v1.1/sites/${SITE}/webhooks/${endpoint.id}/deliveries`;
    const delivery = await eventually(async () => {
      const list = await api().get(base).set('x-esign-principal', principal);
      const d = decoded(WebhookDeliveryList, list.body).data.find((x) => x.event_id === sent.id);
      return d?.status === 'delivered' ? d : undefined;
    }, 10_000);
    assert.equal(delivery.attempts, 2);
    assert.equal(delivery.response_status, 200);
    const detail = await api().get(`${base}/${delivery.id}`).set('x-esign-principal', principal);
    assert.deepEqual(
      decoded(WebhookDeliveryDetail, detail.body).attempt_history.map((a) => [
        a.outcome,
        a.response_status,
        a.response_excerpt,
      ]),
      [
        ['retry', 500, 'database is down'],
        ['delivered', 200, 'ok'],
      ],
    );
  });

  it('after a rotation, signs with both secrets during the overlap, then with the new one only', async () => {
    const endpoint = await register('/rotating', ['request.cancelled']);
    const rotated = await api()
      .post(`/v1.1/sites/${SITE}/webhooks/${endpoint.id}/rotate-secret`)
      .set('x-esign-principal', principal)
      .send({ overlap_seconds: 3600 });
    assert.equal(rotated.status, 200);
    const newSecret = decoded(WebhookEndpointWithSecret, rotated.body).secret;
    const during = await receivedEvent('/rotating', (await publish('request.cancelled')).id);
    const header = during.headers['esign-signature'] as string;
    assert.equal(header.split(',').filter((p) => p.startsWith('v1=')).length, 2);
    assert.equal(verifyWebhook(endpoint.secret, header, during.body), true, 'old secret during the overlap');
    assert.equal(verifyWebhook(newSecret, header, during.body), true, 'new secret');

    const ended = await api()
      .post(`/v1.1/sites/${SITE}/webhooks/${endpoint.id}/rotate-secret`)
      .set('x-esign-principal', principal)
      .send({ overlap_seconds: 0 });
    const after = await receivedEvent('/rotating', (await publish('request.cancelled')).id);
    const afterHeader = after.headers['esign-signature'] as string;
    assert.equal(
      verifyWebhook(decoded(WebhookEndpointWithSecret, ended.body).secret, afterHeader, after.body),
      true,
    );
    assert.equal(verifyWebhook(newSecret, afterHeader, after.body), false);
    assert.equal(verifyWebhook(endpoint.secret, afterHeader, after.body), false);
  });
});
