// `npm run migrate`: creates each service's database when missing and applies its
// pending migrations (node-pg-migrate, under an advisory lock), then exits. Same
// settings and service environment as `npm start` (scripts/lib/local-env.mjs): a
// service's migrate.js decodes its whole configuration, not only DATABASE_URL.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { localSecrets, localSettings, root, serviceEnvironment } from './lib/local-env.mjs';

const settings = localSettings();
const secrets = localSecrets(settings.dataDir);
const { ensureDatabase } = await import(pathToFileURL(join(root, 'libs/platform/dist/src/index.js')).href);

for (const service of settings.services.filter((s) => s.db)) {
  await ensureDatabase(settings.databaseUrl(service.name));
  const result = spawnSync(process.execPath, [join(root, `services/${service.name}/dist/src/migrate.js`)], {
    env: serviceEnvironment(settings, secrets, service.name),
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
