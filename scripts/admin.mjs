// `npm run admin -- <command> [--flags]`: auth's operator CLI (services/auth/src/admin.ts).
// Installs and builds first when needed, like the other root scripts, but with that
// output on stderr: stdout carries only the command's one JSON object. Without
// DATABASE_URL / KEY_ENCRYPTION_KEYS it uses what `npm start` uses locally.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const ensured = spawnSync(process.execPath, [join(root, 'scripts', 'ensure.mjs')], {
  cwd: root,
  stdio: ['ignore', 2, 2],
});
if (ensured.status !== 0) process.exit(ensured.status ?? 1);

const env = { ...process.env };
delete env.NODE_OPTIONS;
if (env.DATABASE_URL === undefined) {
  const postgresBase = (env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  env.DATABASE_URL = `${postgresBase}/esign_auth`;
}
if (env.KEY_ENCRYPTION_KEYS === undefined) {
  const dataDir = join(root, '.data');
  const secretsFile = join(dataDir, 'local-secrets.json');
  const secrets = existsSync(secretsFile) ? JSON.parse(readFileSync(secretsFile, 'utf8')) : {};
  if (secrets.keyEncryption === undefined) {
    secrets.keyEncryption = randomBytes(32).toString('base64url');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(secretsFile, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  }
  env.KEY_ENCRYPTION_KEYS = `k1:${secrets.keyEncryption}`;
}

const result = spawnSync(
  process.execPath,
  [join(root, 'services', 'auth', 'dist', 'src', 'admin.js'), ...process.argv.slice(2)],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
