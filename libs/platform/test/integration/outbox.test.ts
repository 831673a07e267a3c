import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import * as t from 'io-ts';
import {
  connectAmqp,
  createDatabasePool,
  db,
  declareSharedTopology,
  enqueueEvents,
  HANDOFF_GRACE_MS,
  migrate,
  siteRoutingKey,
  sql,
  startOutboxRelay,
  topologyNames,
  type AmqpClient,
  type DatabasePool,
  type OutboxRelay,
} from '../../src/index.js';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  eventually,
  infra,
  startTcpProxy,
  testLogger,
  type TcpProxy,
  type TestDatabase,
} from '@esign/testing';
import { fileURLToPath } from 'node:url';

const noMigrations = fileURLToPath(new URL('./fixtures/no-migrations', import.meta.url));
const event = (n: number, siteId = 1) => ({
  id: randomUUID(),
  type: 'test.happened',
  occurred_at: new Date().toISOString(),
  site_id: siteId,
  aggregate_id: `a${n}`,
  data: { n },
});

/** A queue on the test's exchange that collects what the relay publishes (by `key`, all by default). */
const collector = async (exchange: string, queue: string, key = '#') => {
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

describe('platform: transactional outbox relay (real Postgres and RabbitMQ)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let pool: DatabasePool;
  let prefix: string;
  let exchange: string;
  const relays: OutboxRelay[] = [];
  const clients: AmqpClient[] = [];

  const relay = async (amqpUrl = infra().amqpUrl, pollIntervalMs = 200) => {
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
    });
    relays.push(r);
    return r;
  };

  /** A relay that reaches the broker through a proxy the test can cut. */
  const relayViaProxy = async () => {
    const proxy: TcpProxy = await startTcpProxy(Number(new URL(infra().amqpUrl).port || 5672));
    const url = new URL(infra().amqpUrl);
    url.port = String(proxy.port);
    url.hostname = '127.0.0.1';
    return { proxy, relay: await relay(url.toString()) };
  };

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

  it('stops even when told to before its LISTEN connection is up', async () => {
    const amqp = await connectAmqp(infra().amqpUrl, testLogger(), () => Promise.resolve());
    clients.push(amqp);
    const r = startOutboxRelay({ pool, databaseUrl: database.url, amqp, exchange, logger: testLogger() });
    // At once: the listener's connection is still being made. It used to wait for an end
    // that no one would call.
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      r.stop().then(() => 'stopped'),
      new Promise((resolve) => {
        timer = setTimeout(resolve, 20_000, 'still running after 20 s');
      }),
    ]);
    clearTimeout(timer);
    assert.equal(outcome, 'stopped');
  });

  it('publishes what a transaction committed, persistent and with its id, and nothing it rolled back', async () => {
    const sink = await collector(exchange, `${prefix}.sink1`);
    await relay();
    const committed = [event(1), event(2)];
    await pool.transaction((tx) => enqueueEvents(tx, committed));
    await pool
      .transaction(async (tx) => {
        await enqueueEvents(tx, [event(3)]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await eventually(() => Promise.resolve(sink.received.length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(sink.received.map((e) => e.n).sort(), [1, 2]);
    const pending = await db.one(
      pool,
      t.type({ n: t.number }),
      sql.unsafe`SELECT count(*) AS n FROM outbox WHERE published_at IS NULL`,
    );
    assert.equal(pending.n, 0);
    await sink.close();
  });

  it('also routes each event by its Site and type, drained or handed off (ADR 2690)', async () => {
    await pool.query(sql.unsafe`DELETE FROM outbox`);
    const sink = await collector(exchange, `${prefix}.sink8`, siteRoutingKey(7, 'test.happened'));
    const r = await relay();
    await pool.transaction((tx) => enqueueEvents(tx, [event(1, 7), event(2, 8)]));
    const handed = [event(3, 7), event(4, 8)];
    await pool.transaction((tx) => enqueueEvents(tx, handed, true));
    r.publishCommitted(handed);
    await eventually(() => Promise.resolve(sink.received.length >= 2 ? true : undefined));
    await eventually(async () =>
      (
        await db.one(
          pool,
          t.type({ n: t.number }),
          sql.unsafe`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`,
        )
      ).n === 0
        ? true
        : undefined,
    );
    // Site 8's events were published too; none of them reached the queue bound to site 7.
    assert.deepEqual(sink.received.map((e) => e.n).sort(), [1, 3]);
    await sink.close();
  });

  it('is woken at commit by NOTIFY for rows due at once; a row due later wakes nothing', async () => {
    const sink = await collector(exchange, `${prefix}.sink7`);
    // It polls once a minute: only a notification brings it to a row within the test.
    await relay(infra().amqpUrl, 60_000);
    await new Promise((r) => setTimeout(r, 300)); // its first drain, and LISTEN, done
    await pool.transaction((tx) => enqueueEvents(tx, [event(1)], true));
    await pool.query(sql.unsafe`UPDATE outbox SET next_attempt_at = now()`); // due, but no NOTIFY
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(sink.received.length, 0, 'a row falling due is not a notification');
    await pool.transaction((tx) => enqueueEvents(tx, [event(2)]));
    // The drain the notification sets off takes both.
    await eventually(() => Promise.resolve(sink.received.length === 2 ? true : undefined));
    await sink.close();
  });

  it('shares the work between two relays without publishing an event twice', async () => {
    const sink = await collector(exchange, `${prefix}.sink2`);
    await relay();
    await relay();
    const events = Array.from({ length: 300 }, (_, i) => event(i));
    for (let i = 0; i < events.length; i += 30) {
      await pool.transaction((tx) => enqueueEvents(tx, events.slice(i, i + 30)));
    }
    await eventually(() => Promise.resolve(sink.received.length >= 300 ? true : undefined), 20_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(sink.received.length, 300);
    assert.equal(new Set(sink.received.map((e) => e.id)).size, 300);
    await sink.close();
  });

  describe('hand-off (ADR 2660)', () => {
    const rows = () =>
      db.any(
        pool,
        t.type({ n: t.number, published: t.boolean, due_in_ms: t.number }),
        sql.unsafe`
          SELECT (envelope->'data'->>'n')::int AS n, published_at IS NOT NULL AS published,
                 (extract(epoch FROM next_attempt_at - now()) * 1000)::float8 AS due_in_ms
          FROM outbox ORDER BY seq`,
      );
    beforeEach(() => pool.query(sql.unsafe`DELETE FROM outbox`));

    it('publishes handed-off events at once and stamps their rows, without a drain', async () => {
      const sink = await collector(exchange, `${prefix}.sink4`);
      const r = await relay();
      const handed = [event(1), event(2)];
      // A drain, were it woken, would find these rows not yet due: only the hand-off sends them.
      await pool.transaction((tx) => enqueueEvents(tx, handed, true));
      const written = await rows();
      assert.ok(
        written.every((row) => row.due_in_ms > HANDOFF_GRACE_MS - 5_000),
        JSON.stringify(written),
      );
      r.publishCommitted(handed);
      await eventually(() => Promise.resolve(sink.received.length >= 2 ? true : undefined));
      assert.deepEqual(sink.received.map((e) => e.n).sort(), [1, 2]);
      await eventually(async () => ((await rows()).every((row) => row.published) ? true : undefined));
      await sink.close();
    });

    it('stamps the rows of many hand-offs in one statement, and whatever is left when it stops', async () => {
      const stamps: string[] = [];
      const counted = await createDatabasePool(database.url, {
        interceptors: [
          {
            name: 'count-stamps',
            beforeQueryExecution: (_context, query) => {
              if (/SET published_at = now\(\)/.test(query.sql)) stamps.push(query.sql);
              return null;
            },
          },
        ],
      });
      try {
        const sink = await collector(exchange, `${prefix}.sink8`);
        const amqp = await connectAmqp(infra().amqpUrl, testLogger(), () => Promise.resolve());
        clients.push(amqp);
        await eventually(() => Promise.resolve(amqp.isConnected() ? true : undefined));
        // Gathering for a minute: within the test only stop() stamps.
        const r = startOutboxRelay({
          pool: counted,
          databaseUrl: database.url,
          amqp,
          exchange,
          logger: testLogger(),
          stampDelayMs: 60_000,
        });
        const handed = Array.from({ length: 10 }, (_, i) => event(i));
        await pool.transaction((tx) => enqueueEvents(tx, handed, true));
        // One at a time, each published and confirmed before the next: ten batches.
        for (const [i, e] of handed.entries()) {
          r.publishCommitted([e]);
          await eventually(() => Promise.resolve(sink.received.length === i + 1 ? true : undefined));
        }
        assert.equal(stamps.length, 0, 'published, stamped later');
        assert.ok((await rows()).every((row) => !row.published));
        await r.stop();
        assert.equal(stamps.length, 1, 'one statement stamps all ten');
        assert.ok((await rows()).every((row) => row.published));
        await sink.close();
      } finally {
        await counted.end();
      }
    });

    it('leaves rows whose hand-off never came to the relay once their grace is over', async () => {
      const sink = await collector(exchange, `${prefix}.sink5`);
      await relay();
      // The writer died between its commit and the hand-off.
      await pool.transaction((tx) => enqueueEvents(tx, [event(1)], true));
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(sink.received.length, 0, 'not due: the relay leaves it to its writer');
      await pool.query(sql.unsafe`UPDATE outbox SET next_attempt_at = now()`); // the grace, over
      await eventually(() => Promise.resolve(sink.received.length === 1 ? true : undefined));
      await eventually(async () => ((await rows()).every((row) => row.published) ? true : undefined));
      await sink.close();
    });

    it('gives a hand-off the broker refused back to the relay at once', async () => {
      const sink = await collector(exchange, `${prefix}.sink6`);
      const { proxy, relay: r } = await relayViaProxy();
      try {
        await eventually(() => Promise.resolve(clients.at(-1)!.isConnected() ? true : undefined));
        proxy.cut();
        const handed = [event(1)];
        await pool.transaction((tx) => enqueueEvents(tx, handed, true));
        r.publishCommitted(handed);
        // Due now, so the relay publishes it when the broker is back, not a grace later.
        await eventually(async () => ((await rows())[0]!.due_in_ms <= 0 ? true : undefined));
        assert.equal(sink.received.length, 0);
        proxy.restore();
        await eventually(() => Promise.resolve(sink.received.length === 1 ? true : undefined), 20_000);
      } finally {
        await sink.close();
        await proxy.close();
      }
    });
  });

  it('keeps events through a broker outage and publishes them once it is back', async () => {
    const sink = await collector(exchange, `${prefix}.sink3`);
    const { proxy } = await relayViaProxy();
    try {
      await pool.transaction((tx) => enqueueEvents(tx, [event(1)]));
      await eventually(() => Promise.resolve(sink.received.length === 1 ? true : undefined));

      proxy.cut();
      await pool.transaction((tx) => enqueueEvents(tx, [event(2), event(3)]));
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(sink.received.length, 1, 'nothing can be published while the broker is cut off');
      const waiting = await db.one(
        pool,
        t.type({ n: t.number }),
        sql.unsafe`SELECT count(*) AS n FROM outbox WHERE published_at IS NULL`,
      );
      assert.equal(waiting.n, 2, 'the events wait in the outbox');

      proxy.restore();
      await eventually(() => Promise.resolve(sink.received.length === 3 ? true : undefined), 20_000);
      assert.deepEqual(sink.received.map((e) => e.n).sort(), [1, 2, 3]);
      await sink.close();
    } finally {
      await proxy.close();
    }
  });
});
