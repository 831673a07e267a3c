import { isEntryPoint, migrationsDirOf, runMigrations } from '@esign/platform/database';
import { loadMigrateConfig } from './config.js';

/** This service's own SQL migrations (`services/requests/migrations`); the platform adds the messaging ones. */
export const migrationsDir = migrationsDirOf(import.meta.url);

// `node services/requests/dist/src/migrate.js`: the Kubernetes Job and docker-compose.
if (isEntryPoint(import.meta.url)) runMigrations('requests', migrationsDir, loadMigrateConfig());
