import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from '@esign/testing';

const loggerModule = fileURLToPath(new URL('../../src/logger.ts', import.meta.url));

/** Runs a child process that logs with a buffered logger, collecting its stdout. */
const child = (script: string) => {
  const process_ = spawn(
    process.execPath,
    ['--input-type=module', '-e', `import { createLogger } from ${JSON.stringify(loggerModule)};\n${script}`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  process_.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => process_.on('exit', resolve));
  return { output: () => out, exited, kill: () => process_.kill() };
};

describe('platform: a buffered logger', () => {
  it('writes its buffered lines when the process exits', async () => {
    const run = child(`
      const logger = createLogger('svc', 'info', { bufferBytes: 8192 });
      logger.info({ n: 1 }, 'first');
      logger.info({ n: 2 }, 'second');
      process.exit(0);
    `);
    assert.equal(await run.exited, 0);
    const lines = run
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; service: string });
    assert.deepEqual(
      lines.map((l) => [l.service, l.msg]),
      [
        ['svc', 'first'],
        ['svc', 'second'],
      ],
    );
  });

  it('does not hold a quiet service’s lines back for long', async function () {
    this.timeout(60_000);
    const run = child(`
      const logger = createLogger('svc', 'info', { bufferBytes: 8192 });
      logger.info('lonely line');
      setTimeout(() => {}, 120000);
    `);
    try {
      // The child stays alive far longer than this bound, so only a timed flush can pass;
      // the bound itself is generous because starting a child under load takes seconds.
      await eventually(
        () => Promise.resolve(run.output().includes('lonely line') ? true : undefined),
        30_000,
      );
    } finally {
      run.kill();
    }
  });
});
