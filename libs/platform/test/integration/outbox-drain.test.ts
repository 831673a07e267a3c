import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDatabasePool, migrate, sql, type DatabasePool } from '../../src/database.js';
import { connectAmqp, startOutboxRelay, topologyNames } from '../../src/messaging.js';
import {
  amqpPrefix,
  createTestDatabase,
  eventually,
  infra,
  testLogger,
  type TestDatabase,
} from '@esign/testing';

const noMigrations = fileURLToPath(new URL('./fixtures/no-migrations', import.meta.url));

interface Sent {
  readonly transactionId: string | null;
  readonly sql: string;
  readonly values: readonly unknown[];
}

/** Every scan node of an EXPLAIN (FORMAT JSON) plan, as "node type on index or relation". */
const scans = (node: unknown): string[] => {
  if (typeof node !== 'object' || node === null) return [];
  const n = node as {
    'Node Type'?: string;
    'Index Name'?: string;
    'Relation Name'?: string;
    Plans?: unknown[];
  };
  const own = n['Node Type']?.includes('Scan')
    ? [`${n['Node Type']} on ${n['Index Name'] ?? n['Relation Name']}`]
    : [];
  return [...own, ...(n.Plans ?? []).flatMap(scans)];
};

describe('platform: the outbox drain reads due rows in index order (ADR 2810, real Postgres)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let pool: DatabasePool;

  before(async () => {
    database = await createTestDatabase('outbox_drain');
    await migrate(database.url, noMigrations);
    pool = await createDatabasePool(database.url);
  });
  after(async () => {
    await pool.end();
    await database.drop();
  });

  it('scans outbox_pending in seq order even when the statistics say every row is pending, and reads what is left pending by it too', async () => {
    // What a busy relay leaves behind: thousands of hand-offs, analysed while pending, then
    // stamped, so the index holds their old versions and the statistics say they all wait.
    await pool.query(sql.unsafe`
      INSERT INTO outbox (id, type, envelope, next_attempt_at)
      SELECT gen_random_uuid(), 'test.happened', '{}', now() + interval '1 hour'
      FROM generate_series(1, 3000)`);
    await pool.query(sql.unsafe`ANALYZE outbox`);
    await pool.query(sql.unsafe`UPDATE outbox SET published_at = now() WHERE seq <= 2990`);

    const sent: Sent[] = [];
    const watched = await createDatabasePool(database.url, {
      interceptors: [
        {
          name: 'record',
          beforeQueryExecution: (context, query) => {
            sent.push({ transactionId: context.transactionId, sql: query.sql, values: query.values });
            return null;
          },
        },
      ],
    });
    const prefix = amqpPrefix('outbox_drain');
    const amqp = await connectAmqp(infra().amqpUrl, testLogger(), () => Promise.resolve());
    const relay = startOutboxRelay({
      pool: watched,
      databaseUrl: database.url,
      amqp,
      exchange: topologyNames(prefix).events,
      logger: testLogger(),
    });
    try {
      // Its first drain runs at start; nothing is due, so it publishes nothing.
      await eventually(() =>
        Promise.resolve(sent.some((s) => /FOR UPDATE SKIP LOCKED/.test(s.sql)) || undefined),
      );
    } finally {
      await relay.stop();
      await amqp.close();
      await watched.end();
    }

    const drain = sent.find((s) => /FOR UPDATE SKIP LOCKED/.test(s.sql));
    assert.ok(drain?.transactionId, 'the drain reads in a transaction');
    const before = sent.slice(0, sent.indexOf(drain)).filter((s) => s.transactionId === drain.transactionId);
    assert.ok(before.length > 0, 'the drain sets the planner up first, in its transaction');

    // What the round reads of the rows left pending, in the same transaction (ADR 2890).
    const pending = sent.find((s) => /bool_or/.test(s.sql));
    assert.equal(
      pending?.transactionId,
      drain.transactionId,
      'the round reads what is pending in its transaction',
    );

    const plan = async (withRelaySettings: boolean, statement: Sent = drain): Promise<string[]> => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query('BEGIN');
        if (withRelaySettings) for (const s of before) await client.query(s.sql, [...s.values]);
        const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: unknown }> }>(
          `EXPLAIN (FORMAT JSON) ${statement.sql}`,
          [...statement.values],
        );
        return scans(result.rows[0]?.['QUERY PLAN'][0]?.Plan);
      } finally {
        await client.end();
      }
    };

    // The case the settings are for: left to itself, the planner reads the whole table.
    assert.notDeepEqual(
      await plan(false),
      ['Index Scan on outbox_pending'],
      'the statistics mislead the planner',
    );
    assert.deepEqual(await plan(true), ['Index Scan on outbox_pending']);
    assert.deepEqual(await plan(true, pending), ['Index Scan on outbox_pending']);
  });
});
