import { ConfigError, createDatabasePool, createLogger, decodeConfig, migrate } from '@esign/platform';
import { runAdmin, EXIT } from './adapters/cli/admin-cli.js';
import { KeyEncryptionError } from '@esign/platform';
import { keyMismatchAdvice } from './adapters/crypto/key-encryption-check.js';
import { composeDeps } from './compose.js';
import { AdminConfig, adminDefaults } from './config.js';
import { migrationsDir } from './migrate.js';

/**
 * `npm run admin -- <command> [--flags]`: the operator's CLI. It works on auth's
 * database directly (applying pending migrations first), so it runs with or without the
 * service up. stdout carries exactly one JSON object; logs go to stderr.
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
  const pool = await createDatabasePool(config.DATABASE_URL, { maximumPoolSize: 2 });
  const { deps, usage } = composeDeps({ pool, logger, config });
  try {
    return await runAdmin(process.argv.slice(2), deps, {
      out: (json) => process.stdout.write(`${JSON.stringify(json, null, 2)}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      env: process.env,
    });
  } catch (error) {
    if (!(error instanceof KeyEncryptionError)) throw error;
    return fail(
      'key_encryption_mismatch',
      keyMismatchAdvice(error, new URL(config.DATABASE_URL).pathname.slice(1)),
    );
  } finally {
    await usage.stop();
    await pool.end();
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
