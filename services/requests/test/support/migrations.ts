import { readdirSync } from 'node:fs';
import { migrationsDir } from '../../src/migrate.js';

/**
 * Runs `file`'s migration and every later one down, or up again, on the database at `url`:
 * how a backfill is tested on rows stored before it (the harness migrates a fresh database,
 * where a backfill finds nothing).
 */
export const migrationsFrom =
  (url: string, file: string) =>
  async (direction: 'up' | 'down'): Promise<void> => {
    const { runner } = await import('node-pg-migrate');
    const migrations = readdirSync(migrationsDir)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    if (!migrations.includes(file)) throw new Error(`no migration ${file}`);
    await runner({
      databaseUrl: url,
      dir: migrationsDir,
      direction,
      count: migrations.length - migrations.indexOf(file),
      migrationsTable: 'pgmigrations',
      log: () => undefined,
    });
  };
