import { fileURLToPath } from 'node:url';
import { createLogger, migrate, runMain } from '@esign/platform';
import { loadConfig } from './config.js';

/** Where this service's SQL migrations live, from src/ (tsx) and dist/src/ (node) alike. */
export const migrationsDir = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../migrations' : '../migrations', import.meta.url),
);

const isEntryPoint =
  process.argv[1] !== undefined &&
  fileURLToPath(import.meta.url).replace(/\.ts$/, '.js') === process.argv[1].replace(/\.ts$/, '.js');

if (isEntryPoint) {
  const config = loadConfig();
  const logger = createLogger('notifier-migrate', config.LOG_LEVEL);
  runMain(logger, async () => {
    await migrate(config.DATABASE_URL, migrationsDir, logger);
    logger.info('migrations applied');
  });
}
