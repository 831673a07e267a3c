// `npm run migrate`: creates each service's database when missing and applies its
// pending migrations (node-pg-migrate, under an advisory lock), then exits.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const postgresBase = (process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
const { ensureDatabase } = await import(join(root, 'libs/platform/dist/src/index.js'));

for (const service of ['auth', 'requests', 'notifier']) {
  const databaseUrl = `${postgresBase}/esign_${service}`;
  await ensureDatabase(databaseUrl);
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  delete env.NODE_OPTIONS;
  const result = spawnSync(process.execPath, [join(root, `services/${service}/dist/src/migrate.js`)], {
    env,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
