import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { handleShutdown } from '../../src/index.js';
import { createDatabasePool, db, postgresReadiness, sql } from '../../src/database.js';
import { amqpReadiness, connectAmqp } from '../../src/messaging.js';
import { createTestDatabase, eventually, infra, testLogger, type TestDatabase } from '@esign/testing';
import * as t from 'io-ts';

describe('platform: real Postgres and RabbitMQ', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('platform');
  });
  after(async () => {
    await database.drop();
  });

  it('reads rows through io-ts codecs, timestamps as ISO strings', async () => {
    const pool = await createDatabasePool(database.url);
    try {
      await postgresReadiness(pool).check();
      const row = await db.one(
        pool,
        t.type({ n: t.number, at: t.string }),
        sql.unsafe`SELECT 1::int8 AS n, '2030-01-02T03:04:05Z'::timestamptz AS at`,
      );
      assert.deepEqual(row, { n: 1, at: '2030-01-02T03:04:05.000Z' });
    } finally {
      await pool.end();
    }
  });

  it('connects to RabbitMQ and reports readiness', async () => {
    const client = await connectAmqp(infra().amqpUrl, testLogger(), () => Promise.resolve());
    try {
      await eventually(() => Promise.resolve(client.isConnected() ? true : undefined));
      await amqpReadiness(client).check();
    } finally {
      await client.close();
    }
  });

  it('lets an in-flight request finish on shutdown, then runs the steps and exits 0', async () => {
    const order: string[] = [];
    let exitCode: number | undefined;
    const server = createServer((_req, res) => {
      setTimeout(() => {
        order.push('request finished');
        res.end('done');
      }, 200);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const shutdown = handleShutdown({
      logger: testLogger(),
      servers: [server],
      steps: [{ name: 'pool', run: () => Promise.resolve(void order.push('pool closed')) }],
      exit: (code) => void (exitCode = code),
    });
    const inFlight = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    await shutdown();
    assert.equal(await inFlight, 'done');
    assert.deepEqual(order, ['request finished', 'pool closed']);
    assert.equal(exitCode, 0);
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
  });
});
