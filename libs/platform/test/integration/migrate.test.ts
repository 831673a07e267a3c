import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import * as t from 'io-ts';
import pg from 'pg';
import { createDatabasePool, db, migrate, sql } from '@esign/platform/database';
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

  // node-pg-migrate's lock (its PG_MIGRATE_LOCK_ID); advisory locks are per database.
  const MIGRATION_LOCK = '7241865325823964';

  /**
   * Watches `url` for a session waiting on an advisory lock: `waited` resolves when one
   * is seen and never otherwise; `stop` ends the watch and its connection.
   */
  const watchLockWaits = (url: string) => {
    let stopped = false;
    let seen: (value: 'waited for the lock') => void = () => {};
    const waited = new Promise<'waited for the lock'>((resolve) => (seen = resolve));
    const watching = (async () => {
      const observer = new pg.Client({ connectionString: url });
      await observer.connect();
      try {
        while (!stopped) {
          const waiting = await observer.query(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
          );
          if (waiting.rowCount !== 0) return seen('waited for the lock');
          await sleep(50);
        }
      } finally {
        await observer.end();
      }
    })();
    return {
      waited,
      stop: async () => {
        stopped = true;
        await watching;
      },
    };
  };

  it('with nothing pending, returns without taking the migration lock, even while a migration elsewhere holds it', async () => {
    const database = await createTestDatabase('migrate_current');
    const holder = new pg.Client({ connectionString: database.url });
    try {
      await migrate(database.url, serviceMigrations);
      await holder.connect();
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const watch = watchLockWaits(database.url);
      try {
        const outcome = await Promise.race([
          migrate(database.url, serviceMigrations).then(() => 'returned' as const),
          watch.waited,
        ]);
        assert.equal(outcome, 'returned');
      } finally {
        await watch.stop();
      }
    } finally {
      await holder.end();
      await database.drop();
    }
  });

  it('applies a migration added after the last run, under the lock', async () => {
    const database = await createTestDatabase('migrate_added');
    const dir = mkdtempSync(join(tmpdir(), 'esign-migrations-'));
    const holder = new pg.Client({ connectionString: database.url });
    try {
      cpSync(serviceMigrations, dir, { recursive: true });
      await migrate(database.url, dir);
      writeFileSync(
        join(dir, '1800000001000_gadgets.sql'),
        '-- Up Migration\nCREATE TABLE gadgets (id integer PRIMARY KEY);\n',
      );
      writeFileSync(join(dir, '.notes.sql'), 'not a migration: its name starts with a dot\n');
      // Another migration holds the lock: this one waits for it, then applies the new file.
      await holder.connect();
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const watch = watchLockWaits(database.url);
      const migrating = migrate(database.url, dir);
      try {
        const outcome = await Promise.race([
          watch.waited,
          migrating.then(() => 'returned without waiting' as const),
        ]);
        assert.equal(outcome, 'waited for the lock');
      } finally {
        await watch.stop();
      }
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      await migrating;
      const own = await holder.query<{ name: string }>('SELECT name FROM pgmigrations ORDER BY id');
      assert.deepEqual(
        own.rows.map((r) => r.name),
        ['1800000000000_widgets', '1800000001000_gadgets'],
      );
      await holder.query('SELECT FROM gadgets');
    } finally {
      await holder.end();
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
