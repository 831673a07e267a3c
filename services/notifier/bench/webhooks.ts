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
import request from 'supertest';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import { testGatewayKeys } from '@esign/testing';
import { startWebhookReceiver } from '../test/support/webhook-receiver.js';
import { percentiles, settle, startBench } from './support.js';

const EVENTS = Number(process.env.EVENTS ?? 500);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 2);
const SITE = 1;

const outbox = await mkdtemp(join(tmpdir(), 'webhooks-bench-'));
const receiver = await startWebhookReceiver();
const {
  notifier,
  channel: ch,
  names,
  stop,
} = await startBench('webhooks', {
  NOTIFIER_OUTBOX_DIR: outbox,
  WEBHOOKS_ALLOW_HTTP: 'true',
  WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
  LOG_LEVEL: 'silent',
});
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

await settle();

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
const latencies = receiver.received.map(
  (r) => r.at - performance.timeOrigin - publishedAt.get((JSON.parse(r.body) as { id: string }).id)!,
);
process.stdout.write(
  `${EVENTS} events × ${ENDPOINTS} endpoints = ${total} deliveries in ${seconds.toFixed(2)} s: ` +
    `${Math.round(total / seconds)} deliveries/s; publish → received ${percentiles(latencies)}\n`,
);

await stop();
await receiver.close();
await rm(outbox, { recursive: true, force: true });
