import { ConfigError, createLogger, decodeConfig } from '@esign/platform';
import { migrate } from '@esign/platform/database';
import { AdminConfig, adminDefaults } from '../../config.js';
import { migrationsDir } from '../../migrate.js';
import { openAdminDeps } from '../../service.js';
import { runAdmin, EXIT } from './admin-cli.js';

/**
 * `npm run admin -- <command> [--flags]`: the operator's CLI. It works on auth's
 * database directly (applying pending migrations first), so it runs with or without the
 * service up. stdout carries exactly one JSON object; logs go to stderr. The process
 * entry (`node services/auth/dist/src/adapters/cli/admin.js`); the commands are in
 * admin-cli.ts, over auth's use cases as the composition root wires them.
 */
const logger = createLogger('auth-admin', process.env.LOG_LEVEL ?? 'warn', { stderr: true });

const fail = (code: string, message: string): number => {
  process.stderr.write(`${message}\n`);
  process.stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  return EXIT.failure;
};

const main = async (): Promise<number> => {
  let config: AdminConfig;
  try {
    config = decodeConfig(AdminConfig, adminDefaults);
  } catch (error) {
    if (error instanceof ConfigError) return fail('invalid_configuration', error.message);
    throw error;
  }
  try {
    await migrate(config.DATABASE_URL, migrationsDir, logger);
  } catch (error) {
    const missing = (error as { code?: string }).code === '3D000';
    const message = missing
      ? `database ${new URL(config.DATABASE_URL).pathname.slice(1)} does not exist: run \`npm run migrate\` (or \`npm start\`) first, or set DATABASE_URL`
      : `cannot reach the database: ${error instanceof Error ? error.message : String(error)}`;
    return fail('database_unavailable', message);
  }
  const admin = await openAdminDeps(config, logger);
  try {
    return await runAdmin(process.argv.slice(2), admin.deps, {
      out: (json) => process.stdout.write(`${JSON.stringify(json, null, 2)}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      env: process.env,
    });
  } catch (error) {
    const advice = admin.keyMismatch(error);
    if (advice === undefined) throw error;
    return fail('key_encryption_mismatch', advice);
  } finally {
    await admin.close();
  }
};

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    logger.fatal({ err: error }, 'admin command failed');
    process.stdout.write(
      `${JSON.stringify({ error: { code: 'internal_error', message: String(error) } }, null, 2)}\n`,
    );
    process.exitCode = EXIT.failure;
  },
);
