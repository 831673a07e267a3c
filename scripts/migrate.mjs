// `npm run migrate`: creates each service's database when missing and applies the
// messaging (outbox, inbox) and the service's own pending migrations with the platform's
// one `migrate` helper (node-pg-migrate, under an advisory lock), then exits. The databases
// are those `npm start` uses (scripts/lib/local-env.mjs).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { localSettings, root } from './lib/local-env.mjs';

const settings = localSettings();
const { createLogger } = await import(pathToFileURL(join(root, 'libs/platform/dist/src/index.js')).href);
const { ensureDatabase, migrate } = await import(
  pathToFileURL(join(root, 'libs/platform/dist/src/database.js')).href
);

for (const service of settings.services.filter((s) => s.db)) {
  const logger = createLogger(`${service.name}-migrate`, settings.logLevel);
  try {
    await ensureDatabase(settings.databaseUrl(service.name));
    await migrate(
      settings.databaseUrl(service.name),
      join(root, 'services', service.name, 'migrations'),
      logger,
    );
    logger.info('migrations applied');
  } catch (error) {
    logger.fatal({ err: error }, 'migration failed');
    process.exit(1);
  }
}
