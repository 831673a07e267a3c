import assert from 'node:assert/strict';
import { createTestDatabase, startTcpProxy, type TcpProxy, type TestDatabase } from '@esign/testing';
import { createDatabasePool, isDatabaseUnavailable, sql, type DatabasePool } from '../../src/database.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fails instead of hanging: a wedged pool never answers. */
const within = <T>(ms: number, what: string, work: Promise<T>): Promise<T> =>
  Promise.race([
    work,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms),
    ),
  ]);

describe('platform: the database pool through a database outage', function () {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let pool: DatabasePool;

  before(async () => {
    database = await createTestDatabase('outage');
    proxy = await startTcpProxy(Number(new URL(database.url).port || 5432));
    const url = new URL(database.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    pool = await createDatabasePool(url.toString());
    await pool.query(sql.unsafe`CREATE TABLE t (id serial PRIMARY KEY)`);
  });
  after(async () => {
    proxy.restore();
    if (pool !== undefined) await within(5000, 'pool end', pool.end()).catch(() => undefined);
    await proxy?.close();
    await database?.drop();
  });

  it('serves again once the database is back, after connections died mid-query', async () => {
    // Every slot busy in a transaction when the connections are cut: slonik 47 alone
    // then keeps all of them as "pending destroy" and every later caller waits forever.
    let stop = false;
    const failures: unknown[] = [];
    const workers = Array.from({ length: 12 }, async () => {
      while (!stop) {
        try {
          await pool.transaction(async (tx) => {
            await tx.query(sql.unsafe`INSERT INTO t DEFAULT VALUES`);
            await tx.query(sql.unsafe`SELECT pg_sleep(0.005)`);
          });
        } catch (error) {
          failures.push(error);
          await sleep(50);
        }
      }
    });
    await sleep(500);
    proxy.cut();
    await sleep(1000);
    proxy.restore();
    await within(10_000, 'a query after the outage', pool.query(sql.unsafe`SELECT 1`));
    stop = true;
    await within(10_000, 'the workers', Promise.all(workers));
    assert.ok(failures.length > 0, 'the outage was felt');
    assert.ok(
      failures.every((error) => isDatabaseUnavailable(error)),
      `every failure reads as an outage (a 503): ${failures.map(String).join('; ')}`,
    );
  });
});
