import { createLogger } from '@esign/platform';
import { EXIT, type CliIo } from './admin-cli.js';
import { openAdminSession, printFailure } from './admin-session.js';

/**
 * `npm run admin -- <command> [--flags]`: the operator's CLI. It works on auth's
 * database directly (applying pending migrations first), so it runs with or without the
 * service up. stdout carries exactly one JSON object; logs go to stderr. The process
 * entry (`node services/auth/dist/src/adapters/cli/admin.js`); the commands are in
 * admin-cli.ts, over auth's use cases as the composition root wires them (admin-session.ts).
 */
const logger = createLogger('auth-admin', process.env.LOG_LEVEL ?? 'warn', { stderr: true });

const io: CliIo = {
  out: (json) => process.stdout.write(`${JSON.stringify(json, null, 2)}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
};

const main = async (): Promise<number> => {
  const opened = await openAdminSession(process.env, logger);
  if ('failure' in opened) return printFailure(io, opened.failure.code, opened.failure.message);
  try {
    return await opened.session.run(process.argv.slice(2), io);
  } finally {
    await opened.session.close();
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
