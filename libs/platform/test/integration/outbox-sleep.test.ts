import assert from 'node:assert/strict';
import { enqueueEvents, sql } from '../../src/database.js';
import { listenForCommits, type CommitListener } from '../../src/outbox-listener.js';
import { eventually, infra, testLogger } from '@esign/testing';
import {
  collector,
  database,
  event,
  exchange,
  pool,
  prefix,
  relay,
  useOutboxRelays,
} from './outbox-support.js';

describe('platform: the outbox relay between rounds (real Postgres and RabbitMQ; ADR 2890)', function () {
  this.timeout(60_000);
  useOutboxRelays();
  beforeEach(() => pool.query(sql.unsafe`DELETE FROM outbox`));

  it('takes a row that falls due without a notification when it is due, not an interval later', async () => {
    const sink = await collector(exchange, `${prefix}.sleep1`);
    // It looks once a minute whether or not it is listening: only the due time it read can
    // bring it back to the row within the test.
    await relay(infra().amqpUrl, 60_000, 60_000);
    await new Promise((r) => setTimeout(r, 300)); // its first round, and LISTEN, done
    // A hand-off whose writer died: no NOTIFY, due a little later.
    await pool.transaction((tx) => enqueueEvents(tx, [event(1)], true));
    await pool.query(sql.unsafe`UPDATE outbox SET next_attempt_at = now() + interval '1.5 seconds'`);
    // A row due at once wakes the relay; that round reads when the other falls due.
    await pool.transaction((tx) => enqueueEvents(tx, [event(2)]));
    await eventually(() => Promise.resolve(sink.received.length === 2 ? true : undefined));
    assert.deepEqual(sink.received.map((e) => e.n).sort(), [1, 2]);
    await sink.close();
  });

  describe('its LISTEN connection', () => {
    let listener: CommitListener | undefined;
    afterEach(() => listener?.stop());

    it('wakes the relay when it is up, when it is lost (to poll meanwhile) and when it is back', async () => {
      const seen: boolean[] = [];
      const made: CommitListener = listenForCommits({
        databaseUrl: database.url,
        log: testLogger(),
        wake: () => seen.push(made.listening()),
      });
      listener = made;
      await eventually(() => Promise.resolve(seen.length === 1 ? true : undefined));
      assert.deepEqual(seen, [true]);
      await pool.query(sql.unsafe`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query = 'LISTEN outbox'`);
      await eventually(() => Promise.resolve(seen.length === 3 ? true : undefined));
      assert.deepEqual(seen, [true, false, true]);
      assert.equal(made.listening(), true);
    });

    it("wakes another channel's owner by that channel's notifications, and with the relay when it is up (ADR 2910)", async () => {
      const relayWakes: boolean[] = [];
      const otherWakes: boolean[] = [];
      const made: CommitListener = listenForCommits({
        databaseUrl: database.url,
        log: testLogger(),
        wake: () => relayWakes.push(made.listening()),
        channels: { outbox_test_other: () => otherWakes.push(made.listening()) },
      });
      listener = made;
      await eventually(() => Promise.resolve(otherWakes.length === 1 ? true : undefined));
      assert.deepEqual({ relayWakes, otherWakes }, { relayWakes: [true], otherWakes: [true] });
      await pool.query(sql.unsafe`SELECT pg_notify('outbox_test_other', '')`);
      await eventually(() => Promise.resolve(otherWakes.length === 2 ? true : undefined));
      assert.equal(relayWakes.length, 1, 'the relay is not woken by the other channel');
      await pool.query(sql.unsafe`SELECT pg_notify('outbox', '')`);
      await eventually(() => Promise.resolve(relayWakes.length === 2 ? true : undefined));
      assert.equal(otherWakes.length, 2, 'nor its owner by the outbox channel');
    });
  });
});
