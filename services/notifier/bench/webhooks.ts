/**
 * Webhook throughput: registers ENDPOINTS endpoints (through the API) on one local
 * receiver, publishes EVENTS `request.completed` events at once, and times until every
 * delivery has reached the receiver. Real Postgres and RabbitMQ, default delivery
 * settings (16 in flight, a fresh connection per attempt), http and loopback allowed
 * for the local receiver.
 *
 *   npm run bench:webhooks -w services/notifier      # EVENTS=1000 ENDPOINTS=2 … to change the load
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqplib from 'amqplib';
import request from 'supertest';
import { consumerQueues, topologyNames } from '@esign/platform';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  infra,
  testGatewayKeys,
  testLogger,
} from '@esign/testing';
import { parseConfig } from '../src/config.js';
import { startNotifierService } from '../src/service.js';
import { CONSUMER_NAME } from '../src/adapters/amqp/notification-consumer.js';
import { WEBHOOK_CONSUMER_NAME } from '../src/adapters/amqp/webhook-event-consumer.js';
import { startWebhookReceiver } from '../test/support/webhook-receiver.js';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
process.env.AMQP_URL ??= 'amqp://guest:guest@127.0.0.1:5672';

const EVENTS = Number(process.env.EVENTS ?? 500);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 2);
const SITE = 1;

const database = await createTestDatabase('webhooks_bench');
const prefix = amqpPrefix('webhooks-bench');
const outbox = await mkdtemp(join(tmpdir(), 'webhooks-bench-'));
const receiver = await startWebhookReceiver();
const notifier = await startNotifierService(
  parseConfig({
    DATABASE_URL: database.url,
    AMQP_URL: infra().amqpUrl,
    AMQP_PREFIX: prefix,
    PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
    KEY_ENCRYPTION_KEYS: 'k1:a-test-key-encryption-secret-of-32-characters',
    NOTIFIER_OUTBOX_DIR: outbox,
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
    LOG_LEVEL: 'silent',
  }),
  testLogger('webhooks-bench'),
);
const principal = await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.notifier, {
  sub: 'bench',
  token_id: 't',
  sites: [{ id: SITE, name: 'Bench' }],
});
for (let i = 0; i < ENDPOINTS; i++) {
  const r = await request(notifier.app.callback())
    .post(`/v1.1/sites/${SITE}/webhooks`)
    .set('x-esign-principal', principal)
    .send({
      url: receiver.url(`/e${i}`),
      event_types: ['request.completed'],
      alert_email: 'ops@bench.example',
    });
  if (r.status !== 201) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
}

const connection = await amqplib.connect(infra().amqpUrl);
const ch = await connection.createConfirmChannel();
const names = topologyNames(prefix);
await new Promise((r) => setTimeout(r, 500)); // the notifier declares and binds its queues

const publishedAt = new Map<string, number>();
const started = performance.now();
for (let i = 0; i < EVENTS; i++) {
  const id = randomUUID();
  const event = {
    id,
    type: 'request.completed',
    occurred_at: new Date().toISOString(),
    site_id: SITE,
    aggregate_id: `rq_${i}`,
    data: { request_id: `rq_${i}` },
  };
  publishedAt.set(id, performance.now());
  ch.publish(names.events, event.type, Buffer.from(JSON.stringify(event)), {
    persistent: true,
    messageId: id,
  });
}
await ch.waitForConfirms();
const total = EVENTS * ENDPOINTS;
while (receiver.received.length < total) await new Promise((r) => setTimeout(r, 20));
const seconds = (performance.now() - started) / 1000;
const latencies = receiver.received
  .map((r) => r.at - performance.timeOrigin - publishedAt.get((JSON.parse(r.body) as { id: string }).id)!)
  .sort((a, b) => a - b);
const pct = (p: number) =>
  Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!);
process.stdout.write(
  `${EVENTS} events × ${ENDPOINTS} endpoints = ${total} deliveries in ${seconds.toFixed(2)} s: ` +
    `${Math.round(total / seconds)} deliveries/s; publish → received p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms\n`,
);

await connection.close();
for (const step of notifier.steps) await step.run();
await receiver.close();
const queues = [CONSUMER_NAME, WEBHOOK_CONSUMER_NAME].flatMap((name) => {
  const q = consumerQueues(prefix, name, 5);
  return [q.main, q.parked, ...q.retries];
});
await deleteAmqpObjects({ queues, exchanges: [names.events, names.deadLetter] });
await database.drop();
await rm(outbox, { recursive: true, force: true });
