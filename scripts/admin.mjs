// `npm run admin -- <command> [--flags]`: auth's operator CLI (services/auth/src/adapters/cli/admin.ts).
// Installs and builds first when needed, like the other root scripts, but with that
// output on stderr: stdout carries only the command's one JSON object. Without
// DATABASE_URL / KEY_ENCRYPTION_KEYS it uses what `npm start` uses locally.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { localSecrets, localSettings, root, serviceEnvironment } from './lib/local-env.mjs';

const ensured = spawnSync(process.execPath, [join(root, 'scripts', 'ensure.mjs')], {
  cwd: root,
  stdio: ['ignore', 2, 2],
});
if (ensured.status !== 0) process.exit(ensured.status ?? 1);

// Without DATABASE_URL / KEY_ENCRYPTION_KEYS: the same local installation `npm start` runs.
const settings = localSettings();
const env = { ...serviceEnvironment(settings, localSecrets(settings.dataDir), 'auth'), ...process.env };
delete env.NODE_OPTIONS;

const result = spawnSync(
  process.execPath,
  [join(root, 'services', 'auth', 'dist', 'src', 'adapters', 'cli', 'admin.js'), ...process.argv.slice(2)],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
