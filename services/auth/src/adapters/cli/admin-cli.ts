import { parseArgs } from 'node:util';
import type { Deps } from '../../application/deps.js';
import { authProblem } from '../../application/problems.js';
import { ACCOUNT_COMMANDS } from './account-commands.js';
import { APP_COMMANDS } from './app-commands.js';
import { CommandError, PartlyDone, UsageError, type CliIo, type Command } from './cli-command.js';
import { LIST_COMMAND } from './list-command.js';

/**
 * The operator's CLI (`npm run admin -- <command>`): a thin adapter over auth's use
 * cases. It parses flags, runs a use case, and prints one JSON object; an expected failure
 * is printed with the same code and sentence as the HTTP API gives it (`authProblem`).
 */
export type { CliIo } from './cli-command.js';
export { PASSWORD_ENV } from './cli-command.js';
export { DEFAULT_ACTIVATION_DELAY_SECONDS } from './app-commands.js';

/** Exit codes (sysexits.h): scripts can tell a typo from a missing record. */
export const EXIT = { ok: 0, failure: 1, usage: 64, data: 65 } as const;

export const COMMANDS: Record<string, Command> = {
  ...ACCOUNT_COMMANDS,
  ...APP_COMMANDS,
  list: LIST_COMMAND,
};

export const usage = (): string =>
  [
    'usage: npm run admin -- <command> [--flags]',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name} ${c.summary}`),
    '',
    'Each command prints one JSON object on stdout; logs and errors go to stderr.',
  ].join('\n');

/** Runs one admin command; answers the process exit code. */
export const runAdmin = async (argv: readonly string[], deps: Deps, io: CliIo): Promise<number> => {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.err(usage());
    io.out({ commands: Object.keys(COMMANDS) });
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  try {
    if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
    let parsed;
    try {
      parsed = parseArgs({
        args: [...rest],
        options: command.options,
        strict: true,
        allowPositionals: command.positionals === true,
      });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    io.out(await command.run(deps, parsed.values, parsed.positionals, io));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${usage()}`);
      io.out({ error: { code: 'usage', message: error.message } });
      return EXIT.usage;
    }
    if (error instanceof PartlyDone) {
      io.err(`${name}: ${error.message}`);
      io.out({ ...error.done, error: { code: error.code, message: error.message } });
      return EXIT.failure;
    }
    if (error instanceof CommandError) {
      // The same table as HTTP: one code and one sentence per domain error.
      const { code, detail, title } = authProblem(error.error);
      const message = detail ?? title;
      io.err(`${name}: ${message}`);
      io.out({ error: { code, message } });
      return EXIT.data;
    }
    throw error;
  }
};
