// What the outbox relay's test files (outbox*.test.ts) share: their events, a collecting
// queue, and the hooks that give each file a database, a private AMQP prefix and relays.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import amqplib from 'amqplib';
import { createDatabasePool, migrate, type DatabasePool } from '../../src/database.js';
import {
  connectAmqp,
  declareSharedTopology,
  startOutboxRelay,
  topologyNames,
  type AmqpClient,
  type OutboxRelay,
} from '../../src/messaging.js';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  infra,
  startTcpProxy,
  testLogger,
  type TcpProxy,
  type TestDatabase,
} from '@esign/testing';

const noMigrations = fileURLToPath(new URL('./fixtures/no-migrations', import.meta.url));
export const event = (n: number, siteId = 1) => ({
  id: randomUUID(),
  type: 'test.happened',
  occurred_at: new Date().toISOString(),
  site_id: siteId,
  aggregate_id: `a${n}`,
  data: { n },
});

/** A queue on the test's exchange that collects what the relay publishes (by `key`, all by default). */
export const collector = async (exchange: string, queue: string, key = '#') => {
  const connection = await amqplib.connect(infra().amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  await channel.assertQueue(queue, { durable: false, autoDelete: true });
  await channel.bindQueue(queue, exchange, key);
  const received: Array<{ id: string; n: number }> = [];
  await channel.consume(queue, (m) => {
    if (m === null) return;
    const body = JSON.parse(m.content.toString()) as { id: string; data: { n: number } };
    assert.equal(m.properties.messageId, body.id);
    assert.equal(m.properties.deliveryMode, 2, 'published persistent');
    assert.equal(m.properties.headers?.BCC, undefined, 'BCC is stripped');
    received.push({ id: body.id, n: body.data.n });
    channel.ack(m);
  });
  return { received, close: () => connection.close() };
};

/*
 * The file's database, pool, AMQP prefix and exchange: live bindings, set by the `before`
 * hook that `useOutboxRelays` registers (each file that calls it sets them anew).
 */
export let database: TestDatabase;
export let pool: DatabasePool;
export let prefix: string;
export let exchange: string;
const relays: OutboxRelay[] = [];
/** The AMQP clients a test opened, closed after each test. */
export const clients: AmqpClient[] = [];

/**
 * A relay on the file's pool and exchange, stopped after each test. It polls every
 * `pollIntervalMs` whether or not it is listening, unless told otherwise (ADR 2890).
 */
export const relay = async (
  amqpUrl = infra().amqpUrl,
  pollIntervalMs = 200,
  listeningPollIntervalMs = pollIntervalMs,
) => {
  const amqp = await connectAmqp(amqpUrl, testLogger(), async (model) => {
    const ch = await model.createChannel();
    await declareSharedTopology(ch, prefix);
    await ch.close();
  });
  clients.push(amqp);
  const r = startOutboxRelay({
    pool,
    databaseUrl: database.url,
    amqp,
    exchange,
    logger: testLogger(),
    pollIntervalMs,
    listeningPollIntervalMs,
  });
  relays.push(r);
  return r;
};

/** A relay that reaches the broker through a proxy the test can cut. */
export const relayViaProxy = async () => {
  const proxy: TcpProxy = await startTcpProxy(Number(new URL(infra().amqpUrl).port || 5672));
  const url = new URL(infra().amqpUrl);
  url.port = String(proxy.port);
  url.hostname = '127.0.0.1';
  return { proxy, relay: await relay(url.toString()) };
};

/**
 * Registers, in the calling `describe`, the hooks that create the file's database (with the
 * platform's own tables only), its AMQP prefix and exchange, stop its relays after each test,
 * and drop it all at the end.
 */
export const useOutboxRelays = (): void => {
  before(async () => {
    database = await createTestDatabase('outbox');
    await migrate(database.url, noMigrations);
    pool = await createDatabasePool(database.url);
    prefix = amqpPrefix('outbox');
    exchange = topologyNames(prefix).events;
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(async () => {
    await pool.end();
    await database.drop();
    await deleteAmqpObjects({ exchanges: [exchange, topologyNames(prefix).deadLetter] });
  });
};
