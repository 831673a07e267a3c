import assert from 'node:assert/strict';
import * as t from 'io-ts';
import { db, enqueueEvents, sql } from '../../src/database.js';
import { connectAmqp, siteRoutingKey, startOutboxRelay } from '../../src/messaging.js';
import { eventually, infra, testLogger } from '@esign/testing';
import {
  clients,
  collector,
  database,
  event,
  exchange,
  pool,
  prefix,
  relay,
  relayViaProxy,
  useOutboxRelays,
} from './outbox-support.js';

describe('platform: transactional outbox relay (real Postgres and RabbitMQ)', function () {
  this.timeout(60_000);
  useOutboxRelays();

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
