import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { Logger } from './logger.js';

/** The outbox and inbox tables, from src/ (tsx) and dist/src/ (node) alike. */
export const messagingMigrationsDir = fileURLToPath(
  new URL(
    import.meta.url.includes('/dist/') ? '../../migrations/messaging' : '../migrations/messaging',
    import.meta.url,
  ),
);

/**
 * Applies the service's pending migrations. node-pg-migrate holds a Postgres advisory
 * lock meanwhile, so replicas starting together wait for one another instead of racing.
 */
export const migrate = async (
  url: string,
  dir: string,
  logger?: Logger,
  options: { readonly messaging?: boolean } = {},
): Promise<void> => {
  if (options.messaging === true) {
    // The shared outbox/inbox schema keeps its own history table, so its migrations
    // never interleave with the service's own.
    await runner({
      databaseUrl: url,
      dir: messagingMigrationsDir,
      direction: 'up',
      migrationsTable: 'pgmigrations_messaging',
      checkOrder: true,
      advisoryLockMode: 'wait',
      log: (message: string) => logger?.debug({ migration: message }, 'migration'),
    });
  }
  await runner({
    databaseUrl: url,
    dir,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    checkOrder: true,
    advisoryLockMode: 'wait',
    log: (message: string) => logger?.debug({ migration: message }, 'migration'),
  });
};
