import { fileURLToPath } from 'node:url';
import * as t from 'io-ts';
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

/**
 * The one way a service's database is migrated (start-up, `npm run migrate`, the
 * per-service migrate.js of the Kubernetes Job, tests): the messaging tables (outbox,
 * inbox) and then the service's own pending migrations from `dir`. node-pg-migrate holds
 * a Postgres advisory lock meanwhile, so replicas starting together wait for one another.
 * The messaging schema keeps its own history table, so the two never interleave.
 */
export const migrate = async (url: string, dir: string, logger?: Logger): Promise<void> => {
  await apply(url, messagingMigrationsDir, 'pgmigrations_messaging', logger);
  await apply(url, dir, 'pgmigrations', logger);
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
