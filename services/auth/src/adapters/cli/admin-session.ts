import { ConfigError, decodeConfig, type Logger } from '@esign/platform';
import { migrate } from '@esign/platform/database';
import { AdminConfig, adminDefaults } from '../../config.js';
import { migrationsDir } from '../../migrate.js';
import { openAdminDeps } from '../../service.js';
import { EXIT, runAdmin, type CliIo } from './admin-cli.js';

/**
 * The admin CLI's commands over one database pool: `admin.js` runs one command in a
 * session; `npm start`'s local demo (scripts/demo.mjs) runs its seven in one, in its own
 * process, instead of starting Node and checking the migrations seven times.
 */
export interface AdminSession {
  /** Runs one command; answers its exit code. The session stays open whatever it answers. */
  readonly run: (argv: readonly string[], io: CliIo) => Promise<number>;
  readonly close: () => Promise<void>;
}

export type OpenedAdminSession =
  | { readonly session: AdminSession }
  | { readonly failure: { readonly code: string; readonly message: string } };

/** Prints a failure as every command does: its sentence on `err`, one JSON object on `out`. */
export const printFailure = (io: Pick<CliIo, 'out' | 'err'>, code: string, message: string): number => {
  io.err(message);
  io.out({ error: { code, message } });
  return EXIT.failure;
};

/** Decodes the configuration from `env`, applies pending migrations and opens the pool. */
export const openAdminSession = async (
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<OpenedAdminSession> => {
  let config: AdminConfig;
  try {
    config = decodeConfig(AdminConfig, adminDefaults, env);
  } catch (error) {
    if (error instanceof ConfigError)
      return { failure: { code: 'invalid_configuration', message: error.message } };
    throw error;
  }
  try {
    await migrate(config.DATABASE_URL, migrationsDir, logger);
  } catch (error) {
    const missing = (error as { code?: string }).code === '3D000';
    const message = missing
      ? `database ${new URL(config.DATABASE_URL).pathname.slice(1)} does not exist: run \`npm run migrate\` (or \`npm start\`) first, or set DATABASE_URL`
      : `cannot reach the database: ${error instanceof Error ? error.message : String(error)}`;
    return { failure: { code: 'database_unavailable', message } };
  }
  const admin = await openAdminDeps(config, logger);
  return {
    session: {
      run: async (argv, io) => {
        try {
          return await runAdmin(argv, admin.deps, io);
        } catch (error) {
          const advice = admin.keyMismatch(error);
          if (advice === undefined) throw error;
          return printFailure(io, 'key_encryption_mismatch', advice);
        }
      },
      close: admin.close,
    },
  };
};
