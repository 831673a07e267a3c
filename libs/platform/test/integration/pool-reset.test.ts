import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase } from '@esign/testing';
import * as t from 'io-ts';
import { createDatabasePool, db, sql, type DatabasePool } from '../../src/database.js';

const Session = t.type({ pid: t.number, probe: t.union([t.string, t.null]), timeout: t.string });
const session = (pool: DatabasePool) =>
  db.one(
    pool,
    Session,
    sql.unsafe`SELECT pg_backend_pid() AS pid, current_setting('esign.probe', true) AS probe,
                      current_setting('statement_timeout') AS timeout`,
  );

describe('platform: a pooled connection goes back to the pool without a reset round trip (ADR 2620)', () => {
  let database: TestDatabase;
  let pool: DatabasePool;
  before(async () => {
    database = await createTestDatabase('pool_reset');
    pool = await createDatabasePool(database.url);
  });
  after(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('reuses its one idle connection, query after query', async () => {
    const first = await session(pool);
    for (let i = 0; i < 5; i++) assert.equal((await session(pool)).pid, first.pid);
    assert.equal(pool.state().idleConnections, 1);
    assert.equal(pool.state().pendingReleaseConnections, 0);
  });

  it('sends no DISCARD ALL: a session setting is still there on the next use, with the statement timeout', async () => {
    await pool.query(sql.unsafe`SELECT set_config('esign.probe', 'kept', false)`);
    const next = await session(pool);
    assert.equal(next.probe, 'kept', 'the connection was reset between two uses');
    assert.equal(next.timeout, '10s');
  });
});
