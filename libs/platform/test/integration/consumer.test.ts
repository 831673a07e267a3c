import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import * as t from 'io-ts';
import { createDatabasePool, migrate, sql, type DatabasePool } from '../../src/database.js';
import {
  claimEvent,
  connectAmqp,
  consumerQueues,
  createEventConsumer,
  PermanentFailure,
  topologyNames,
  type AmqpClient,
  type EventConsumer,
} from '../../src/messaging.js';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  eventually,
  infra,
  testLogger,
  type TestDatabase,
} from '@esign/testing';
import { fileURLToPath } from 'node:url';

const TestEvent = t.type({ id: t.string, type: t.literal('test.happened'), data: t.type({ n: t.number }) });
type TestEvent = t.TypeOf<typeof TestEvent>;
const STEPS = [50, 100];

describe('platform: event consumer with retries and parking (real RabbitMQ)', function () {
  let prefix: string;
  let database: TestDatabase;
  let pool: DatabasePool;
  let amqp: AmqpClient | undefined;
  let consumer: EventConsumer | undefined;
  let name = '';

  const publish = async (body: unknown, raw?: string) => {
    const connection = await amqplib.connect(infra().amqpUrl);
    const ch = await connection.createConfirmChannel();
    ch.publish(topologyNames(prefix).events, 'test.happened', Buffer.from(raw ?? JSON.stringify(body)), {
      persistent: true,
    });
    await ch.waitForConfirms();
    await connection.close();
  };
  const parkedCount = async () => {
    const connection = await amqplib.connect(infra().amqpUrl);
    const ch = await connection.createChannel();
    const { messageCount } = await ch.checkQueue(consumerQueues(prefix, name, STEPS.length).parked);
    await connection.close();
    return messageCount;
  };
  const start = async (handle: (e: TestEvent) => Promise<void>) => {
    name = `c${Math.random().toString(36).slice(2, 8)}`;
    consumer = createEventConsumer({
      prefix,
      name,
      routingKeys: ['test.*'],
      codec: TestEvent,
      handle,
      logger: testLogger(),
      retryDelaysMs: STEPS,
    });
    const c = consumer;
    amqp = await connectAmqp(infra().amqpUrl, testLogger(), (model) => c.setup(model));
    await eventually(() => Promise.resolve(amqp?.isConnected() === true ? true : undefined));
    await new Promise((r) => setTimeout(r, 100));
  };
  const ev = (n: number) => ({ id: randomUUID(), type: 'test.happened', data: { n } });

  before(async () => {
    prefix = amqpPrefix('consumer');
    database = await createTestDatabase('consumer');
    await migrate(database.url, fileURLToPath(new URL('./fixtures/no-migrations', import.meta.url)));
    pool = await createDatabasePool(database.url);
  });
  afterEach(async () => {
    await consumer?.stop();
    await amqp?.close();
    const q = consumerQueues(prefix, name, STEPS.length);
    await deleteAmqpObjects({ queues: [q.main, q.parked, ...q.retries] });
  });
  after(async () => {
    await pool.end();
    await database.drop();
    await deleteAmqpObjects({ exchanges: [topologyNames(prefix).events, topologyNames(prefix).deadLetter] });
  });

  it('drops the bindings an earlier version made (formerRoutingKeys) and keeps its own', async () => {
    const setupWith = async (routingKeys: readonly string[], formerRoutingKeys?: readonly string[]) => {
      const c = createEventConsumer({
        prefix,
        name,
        routingKeys,
        formerRoutingKeys,
        codec: TestEvent,
        handle: () => Promise.resolve(),
        logger: testLogger(),
        retryDelaysMs: STEPS,
      });
      const client = await connectAmqp(infra().amqpUrl, testLogger(), (model) => c.setup(model));
      await eventually(() => Promise.resolve(client.isConnected() ? true : undefined));
      await c.stop();
      await client.close();
    };
    name = `c${Math.random().toString(36).slice(2, 8)}`;
    await setupWith(['test.*']);
    await setupWith(['test.happened'], ['test.*']);
    const connection = await amqplib.connect(infra().amqpUrl);
    try {
      const ch = await connection.createConfirmChannel();
      for (const key of ['test.other', 'test.happened'])
        ch.publish(topologyNames(prefix).events, key, Buffer.from(JSON.stringify(ev(1))), {
          persistent: true,
        });
      await ch.waitForConfirms();
      const { messageCount } = await ch.checkQueue(consumerQueues(prefix, name, STEPS.length).main);
      assert.equal(messageCount, 1);
    } finally {
      await connection.close();
    }
  });

  it('binds the stored routing keys at set-up, and more when asked (bind), even before set-up ends', async () => {
    name = `c${Math.random().toString(36).slice(2, 8)}`;
    const stored = ['test.stored'];
    const handled: number[] = [];
    const c = createEventConsumer({
      prefix,
      name,
      routingKeys: [],
      storedRoutingKeys: () => Promise.resolve(stored),
      codec: TestEvent,
      handle: (e) => {
        handled.push(e.data.n);
        return Promise.resolve();
      },
      logger: testLogger(),
      retryDelaysMs: STEPS,
    });
    consumer = c;
    // Asked before any set-up: it waits for one, and binds once it is done.
    const bound = c.bind(['test.bound']);
    amqp = await connectAmqp(infra().amqpUrl, testLogger(), (model) => c.setup(model));
    await bound;
    const connection = await amqplib.connect(infra().amqpUrl);
    try {
      const ch = await connection.createConfirmChannel();
      for (const [n, key] of ['test.stored', 'test.bound', 'test.other'].entries())
        ch.publish(topologyNames(prefix).events, key, Buffer.from(JSON.stringify(ev(n))), {
          persistent: true,
        });
      await ch.waitForConfirms();
    } finally {
      await connection.close();
    }
    await eventually(() => Promise.resolve(handled.length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(handled.sort(), [0, 1]);
  });

  it('refuses to bind when no set-up finishes within its timeout', async () => {
    name = `c${Math.random().toString(36).slice(2, 8)}`;
    const c = createEventConsumer({
      prefix,
      name,
      routingKeys: [],
      codec: TestEvent,
      handle: () => Promise.resolve(),
      logger: testLogger(),
      bindTimeoutMs: 100,
    });
    await assert.rejects(c.bind(['test.bound']), /not connected to the broker/);
  });

  it('retries a failing handler with back-off until it succeeds', async () => {
    const attempts: number[] = [];
    await start((e) => {
      attempts.push(e.data.n);
      return attempts.length < 3 ? Promise.reject(new Error('SMTP 421 try later')) : Promise.resolve();
    });
    await publish(ev(7));
    await eventually(() => Promise.resolve(attempts.length === 3 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(attempts, [7, 7, 7]);
    assert.equal(await parkedCount(), 0);
  });

  it('parks a poison message and goes on with the next good one', async () => {
    const handled: number[] = [];
    await start((e) => Promise.resolve(void handled.push(e.data.n)));
    await publish(undefined, '{not json');
    await publish({ id: 'x', type: 'test.happened', data: { n: 'NaN' } });
    await publish(ev(8));
    await eventually(() => Promise.resolve(handled.length === 1 ? true : undefined));
    await eventually(async () => ((await parkedCount()) === 2 ? true : undefined));
    assert.deepEqual(handled, [8]);
  });

  it('parks at once on a permanent failure, and after the last retry otherwise', async () => {
    let calls = 0;
    await start((e) => {
      calls++;
      return Promise.reject(
        e.data.n === 1 ? new PermanentFailure('invalid address') : new Error('still down'),
      );
    });
    await publish(ev(1));
    await publish(ev(2));
    await eventually(async () => ((await parkedCount()) === 2 ? true : undefined), 10_000);
    assert.equal(calls, 1 + 1 + STEPS.length);
  });

  it('claims an event id once per consumer, so a redelivery is a no-op', async () => {
    const id = randomUUID();
    const first = await pool.transaction((tx) => claimEvent(tx, 'notifier', id));
    const again = await pool.transaction((tx) => claimEvent(tx, 'notifier', id));
    const other = await pool.transaction((tx) => claimEvent(tx, 'requests', id));
    assert.deepEqual([first, again, other], [true, false, true]);
  });

  it('handles messages outside any transaction even after a reconnect set off inside one', async () => {
    // A broker write that fails inside a database transaction (the outbox relay publishes
    // in one) closes the connection in that transaction's async context; the reconnect and
    // every socket callback after it would inherit it, and slonik refuses every query
    // there as "a foreign connection" (seen in the fault drills).
    const seen: number[] = [];
    await start(async (e) => {
      await pool.query(sql.unsafe`SELECT 1`);
      seen.push(e.data.n);
    });
    const socketOf = (client: AmqpClient) =>
      (
        client.model as unknown as {
          _core: { _model: { connection: { stream: { destroy(error: Error): void } } } };
        }
      )._core._model.connection.stream;
    let reconnected = false;
    amqp!.model.once('disconnect', () => amqp!.model.once('connect', () => (reconnected = true)));
    await pool.transaction(async (tx) => {
      await tx.query(sql.unsafe`SELECT 1`);
      socketOf(amqp!).destroy(new Error('cut'));
    });
    await eventually(() => Promise.resolve(reconnected ? true : undefined));
    await new Promise((r) => setTimeout(r, 100));
    await publish(ev(7));
    await eventually(() => Promise.resolve(seen.includes(7) ? true : undefined));
  });
});
