import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs `body`, the statements of an ES module, in a Node process of its own, started the
 * way the tests run (tsx, the "source" condition) from `cwd`, a package's folder, and
 * answers what it printed last, parsed as JSON. A process of its own because the test's
 * own process has loaded whatever other tests needed.
 *
 * `body` may call `loaded()`: which of `packages` that process has loaded so far, in the
 * order given. A package counts once one of its CommonJS files is in the module cache,
 * whether it was required or imported; a package of ES modules only is never seen.
 * For the tests that a module is loaded on first use rather than at start (ADRs 2504,
 * 2720, 2730, 2740) or not at all (ADR 2850), and for those that need a fresh process's
 * memory (ADR 2750).
 */
export const inProcessOfItsOwn = async (
  cwd: string,
  packages: readonly string[],
  body: string,
): Promise<unknown> => {
  const script = `
    import { createRequire } from 'node:module';
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => ${JSON.stringify(packages)}.filter((name) =>
      Object.keys(cache).some((path) => path.includes('/node_modules/' + name + '/')));
    ${body}`;
  const { stdout } = await run(
    process.execPath,
    ['--conditions=source', '--import=tsx', '--input-type=module', '-e', script],
    // Its own options only, not the test runner's NODE_OPTIONS a second time.
    { cwd, env: { ...process.env, NODE_OPTIONS: '' } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
};
