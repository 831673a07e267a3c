import { readdir } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as t from 'io-ts';
import pg from 'pg';
import { commonDefaults, loadConfigOrExit, LogLevel, UrlFromEnv } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { runMain } from './service.js';

/** The outbox and inbox tables, from src/ (tsx) and dist/src/ (node) alike. */
export const messagingMigrationsDir = fileURLToPath(
  new URL(
    import.meta.url.includes('/dist/') ? '../../migrations/messaging' : '../migrations/messaging',
    import.meta.url,
  ),
);

/**
 * A service's own migrations folder (`services/<name>/migrations`), from a module directly
 * under its src/: `import.meta.url` of a file run by tsx (src/) or node (dist/src/) alike.
 */
export const migrationsDirOf = (moduleUrl: string): string =>
  fileURLToPath(new URL(moduleUrl.includes('/dist/') ? '../../migrations' : '../migrations', moduleUrl));

// node-pg-migrate is loaded when a migration runs, not with the platform: the gateway,
// which has no database, and every process after start-up need none of it (ADR 2505).
const apply = async (url: string, dir: string, migrationsTable: string, logger?: Logger) => {
  const { runner } = await import('node-pg-migrate');
  await runner({
    databaseUrl: url,
    dir,
    direction: 'up',
    migrationsTable,
    checkOrder: true,
    advisoryLockMode: 'wait',
    log: (message: string) => logger?.debug({ migration: message }, 'migration'),
  });
};

/** The two histories, in the order they are applied: messaging (outbox, inbox), then the service's own. */
const histories = (dir: string) =>
  [
    { dir: messagingMigrationsDir, table: 'pgmigrations_messaging' },
    { dir, table: 'pgmigrations' },
  ] as const;

/**
 * The names node-pg-migrate gives the migrations in `dir` (its default, as we call it):
 * every file or link whose name does not start with a dot, without its extension.
 */
const migrationNames = async (dir: string): Promise<readonly string[]> =>
  (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && !entry.name.startsWith('.'))
    .map((entry) => basename(entry.name, extname(entry.name)));

/**
 * Whether every migration of both histories is recorded as run, read with one plain
 * connection and no lock (ADR 2730). Anything else (a history table missing, a file not
 * recorded, a migration still running elsewhere and not committed) is "no", and the
 * library, under its lock, then decides and checks the order as before.
 */
const upToDate = async (url: string, dir: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const history of histories(dir)) {
      const table = `public.${history.table}`;
      const present = await client.query<{ present: boolean }>(
        'SELECT to_regclass($1) IS NOT NULL AS present',
        [table],
      );
      if (present.rows[0]?.present !== true) return false;
      const recorded = await client.query<{ name: string }>(`SELECT name FROM ${table}`);
      const run = new Set(recorded.rows.map((row) => row.name));
      if (!(await migrationNames(history.dir)).every((name) => run.has(name))) return false;
    }
    return true;
  } finally {
    await client.end();
  }
};

/**
 * The one way a service's database is migrated (start-up, `npm run migrate`, the
 * per-service migrate.js of the Kubernetes Job, tests): the messaging tables (outbox,
 * inbox) and then the service's own pending migrations from `dir`. node-pg-migrate holds
 * a Postgres advisory lock meanwhile, so replicas starting together wait for one another.
 * The messaging schema keeps its own history table, so the two never interleave.
 *
 * When every migration is already recorded (a replica starting after the Kubernetes Job
 * or compose's migration step, any restart), node-pg-migrate is not loaded at all: a
 * module once imported stays in the heap for the life of the process (ADR 2730).
 */
export const migrate = async (url: string, dir: string, logger?: Logger): Promise<void> => {
  if (await upToDate(url, dir)) {
    logger?.debug('migrations: nothing pending');
    return;
  }
  for (const history of histories(dir)) await apply(url, history.dir, history.table, logger);
};

/** Whether the module at `moduleUrl` is the script node was started with (src/*.ts or dist/src/*.js). */
export const isEntryPoint = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined &&
  fileURLToPath(moduleUrl).replace(/\.ts$/, '.js') === process.argv[1].replace(/\.ts$/, '.js');

/** `node services/<name>/dist/src/migrate.js`: migrates the service's database and exits. */
/**
 * All a migration run reads: its database and the log level. Nothing else, so the
 * Kubernetes Job and compose's migration steps are given no other secret (issue #18, L12).
 */
export const MigrateConfig = t.type({
  LOG_LEVEL: LogLevel,
  DATABASE_URL: UrlFromEnv('postgres', 'postgresql'),
});
export type MigrateConfig = t.TypeOf<typeof MigrateConfig>;

/**
 * What a service's `config.ts` gives `migrate.js`: the defaults (its database, the log
 * level) and the loader that reads only those (L12).
 */
export const migrateConfigLoaders = (databaseUrl: string) => {
  const migrateDefaults = { LOG_LEVEL: commonDefaults.LOG_LEVEL, DATABASE_URL: databaseUrl };
  return {
    migrateDefaults,
    loadMigrateConfig: (env: NodeJS.ProcessEnv = process.env): MigrateConfig =>
      loadConfigOrExit(MigrateConfig, migrateDefaults, env),
  };
};

export const runMigrations = (
  service: string,
  dir: string,
  config: { readonly DATABASE_URL: string; readonly LOG_LEVEL: string },
): void => {
  const logger = createLogger(`${service}-migrate`, config.LOG_LEVEL);
  runMain(logger, async () => {
    await migrate(config.DATABASE_URL, dir, logger);
    logger.info('migrations applied');
  });
};
