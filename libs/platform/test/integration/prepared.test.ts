import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase } from '@esign/testing';
import * as t from 'io-ts';
import { UniqueIntegrityConstraintViolationError } from 'slonik';
import { createDatabasePool, db, prepared, sql, type DatabasePool } from '../../src/database.js';

const Statement = t.type({
  name: t.string,
  statement: t.string,
  generic_plans: t.number,
  custom_plans: t.number,
});
/** What the pool's one connection has prepared (pg_prepared_statements is per session). */
const preparedOn = (pool: DatabasePool) =>
  db.any(
    pool,
    Statement,
    sql.unsafe`SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name`,
  );

const Row = t.type({ id: t.number, label: t.string });
const byId = (id: number) => prepared(sql.unsafe`SELECT id, label FROM items WHERE id = ${id}`);

describe('platform: statements built with prepared() go to Postgres by name (ADR 2820, real Postgres)', () => {
  let database: TestDatabase;
  let pool: DatabasePool;
  before(async () => {
    database = await createTestDatabase('prepared');
    // One connection, so every query below shares its session.
    pool = await createDatabasePool(database.url, { maximumPoolSize: 1 });
    await pool.query(sql.unsafe`CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)`);
    await pool.query(sql.unsafe`INSERT INTO items SELECT n, 'item ' || n FROM generate_series(1, 100) n`);
  });
  after(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('prepares a marked statement once per connection and reuses it with any values', async () => {
    for (let id = 1; id <= 8; id++)
      assert.deepEqual(await db.one(pool, Row, byId(id)), { id, label: `item ${id}` });
    const statements = await preparedOn(pool);
    assert.equal(statements.length, 1, JSON.stringify(statements));
    const [statement] = statements;
    assert.match(statement!.name, /^esign_[0-9a-f]{32}$/);
    assert.match(statement!.statement, /^\/\* prepared \*\/ SELECT id, label FROM items WHERE id = \$1$/);
    // Eight executions of one statement: Postgres moved to its generic plan after five.
    assert.equal(statement!.generic_plans + statement!.custom_plans, 8);
    assert.ok(statement!.generic_plans > 0, JSON.stringify(statement));
  });

  it('leaves every other statement unnamed', async () => {
    const before = await preparedOn(pool);
    await db.one(pool, Row, sql.unsafe`SELECT id, label FROM items WHERE id = ${3}`);
    assert.deepEqual(
      (await preparedOn(pool)).map((s) => s.name),
      before.map((s) => s.name),
    );
  });

  it('keeps slonik’s errors, and the statement, through a failure and a rollback', async () => {
    const insert = (id: number) =>
      prepared(sql.unsafe`INSERT INTO items (id, label) VALUES (${id}, ${'again'}) RETURNING id, label`);
    await assert.rejects(
      pool.transaction((tx) => db.one(tx, Row, insert(1))),
      (error: unknown) => error instanceof UniqueIntegrityConstraintViolationError,
    );
    // Prepared in a transaction that rolled back: still there, and still works.
    assert.deepEqual(await db.one(pool, Row, insert(101)), { id: 101, label: 'again' });
    const names = (await preparedOn(pool)).filter((s) => /INSERT INTO items/.test(s.statement));
    assert.equal(names.length, 1);
  });
});
