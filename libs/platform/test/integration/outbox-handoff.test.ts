import assert from 'node:assert/strict';
import * as t from 'io-ts';
import { createDatabasePool, db, enqueueEvents, HANDOFF_GRACE_MS, sql } from '../../src/database.js';
import { connectAmqp, startOutboxRelay } from '../../src/messaging.js';
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

describe('platform: transactional outbox relay (real Postgres and RabbitMQ), handing off', function () {
  this.timeout(60_000);
  useOutboxRelays();

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
});
