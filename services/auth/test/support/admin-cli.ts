import assert from 'node:assert/strict';
import { EXIT, runAdmin } from '../../src/adapters/cli/admin-cli.js';
import type { Deps } from '../../src/application/deps.js';

/* eslint-disable @typescript-eslint/no-explicit-any --
   the CLI's JSON output is read loosely by the tests and asserted field by field. */

/** What one command answered: its exit code, the one JSON object it printed, and stderr. */
export interface AdminRun {
  readonly code: number;
  readonly json: any;
  readonly err: string;
}

/**
 * The operator's CLI run in-process against `deps()` (read at each call, so a harness made in
 * `before` will do). `admin` answers what a command did, asserting that it printed exactly one
 * JSON object; `ok` also asserts that it succeeded, and answers that object.
 */
export const adminCli = (deps: () => Deps) => {
  const admin = async (argv: string[], env: NodeJS.ProcessEnv = {}): Promise<AdminRun> => {
    const out: unknown[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, deps(), {
      out: (json) => out.push(json),
      err: (line) => err.push(line),
      env,
    });
    assert.equal(out.length, 1, `exactly one JSON object, got ${out.length}`);
    return { code, json: out[0], err: err.join('\n') };
  };
  const ok = async (argv: string[], env: NodeJS.ProcessEnv = {}): Promise<any> => {
    const result = await admin(argv, env);
    assert.equal(result.code, EXIT.ok, `${argv.join(' ')}: ${JSON.stringify(result.json)}`);
    return result.json;
  };
  return { admin, ok };
};
