import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import * as t from 'io-ts';
import { createDatabasePool, db, migrate, sql } from '@esign/platform';
import { createTestDatabase } from '@esign/testing';

const serviceMigrations = fileURLToPath(new URL('./fixtures/one-migration', import.meta.url));

describe('platform: migrate', () => {
  it('applies the messaging tables and the service’s own, each with its own history, once', async () => {
    const database = await createTestDatabase('migrate');
    try {
      await migrate(database.url, serviceMigrations);
      await migrate(database.url, serviceMigrations); // nothing pending: a no-op
      const pool = await createDatabasePool(database.url);
      try {
        const tables = await db.any(
          pool,
          t.type({ name: t.string }),
          sql.unsafe`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
        );
        assert.deepEqual(
          tables.map((r) => r.name),
          ['inbox', 'outbox', 'pgmigrations', 'pgmigrations_messaging', 'widgets'],
        );
        const own = await db.any(pool, t.type({ name: t.string }), sql.unsafe`SELECT name FROM pgmigrations`);
        assert.deepEqual(
          own.map((r) => r.name),
          ['1800000000000_widgets'],
        );
      } finally {
        await pool.end();
      }
    } finally {
      await database.drop();
    }
  });
});
