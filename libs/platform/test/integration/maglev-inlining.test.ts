import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { v8FlagsFor } from '../../src/v8-settings.js';

/**
 * ADR 2840: Maglev (V8 13, Node 24) inlines the functions a hot function calls, and the
 * working memory of each compile (V8's zones, `peak_malloced_memory`) grows with what it
 * inlines. A plain child process (no tsx: loading it sets a higher peak than one compile)
 * sets the flags `v8FlagsFor` gives, at run time as a service does, makes one function
 * hot that calls 40 small ones, has Maglev compile it on its next call, and reports how
 * far V8's peak of malloc'd memory rose over that one compile. Memory, not time; the
 * compile is synchronous, so a busy machine only makes it slower. The child runs with
 * `--single-threaded`, without V8's background threads (concurrent compiles, the
 * collector's helpers), which malloc too: with them, the default's rise was 176–184 kB
 * on one machine against 40 kB without, and 184 against 462 kB with inlining failed the
 * check below (the Node 24 pass of a `.ci/run`). V8 11 (Node 20) runs no Maglev: the
 * probe then reports that the function was not compiled by it, and the setting has
 * nothing to do there.
 */
const PROBE = `
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
for (const flag of JSON.parse(process.env.PROBE_FLAGS)) setFlagsFromString(flag);
setFlagsFromString('--allow-natives-syntax');
const callees = Array.from({ length: 40 }, (_, i) =>
  'function g' + i + '(o) { let s = o.a + ' + i + '; if (o.b > ' + i + ') s += o.c * 2; else s -= o.d; return s + o.e.length; }',
).join('\\n');
const calls = Array.from({ length: 40 }, (_, i) => 't += g' + i + '(o);').join(' ');
const hot = new Function(callees + '\\nreturn function hot(o) { let t = 0; ' + calls + ' return t; };')();
const input = { a: 1, b: 5, c: 3, d: 4, e: 'xyz' };
for (let i = 0; i < 50; i++) hot(input);
const native = (body) => new Function('f', body);
const before = getHeapStatistics().peak_malloced_memory;
native('%PrepareFunctionForOptimization(f); %OptimizeMaglevOnNextCall(f);')(hot);
hot(input);
const status = native('return %GetOptimizationStatus(f);')(hot);
process.stdout.write(JSON.stringify({
  // V8's OptimizationStatus: bit 5 is "compiled by Maglev".
  maglev: (status & (1 << 5)) !== 0,
  mallocedKb: Math.round((getHeapStatistics().peak_malloced_memory - before) / 1024),
}));
`;

const probe = async (env: Record<string, string>) => {
  const args = ['--single-threaded', '--input-type=module', '--eval', PROBE];
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    env: { PATH: process.env.PATH, PROBE_FLAGS: JSON.stringify(v8FlagsFor(env)) },
    timeout: 60_000,
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as { maglev: boolean; mallocedKb: number };
};

const v8Major = Number(process.versions.v8.split('.')[0]);

describe(`Maglev compiles without inlining on V8 ${process.versions.v8} (MAGLEV_INLINING, ADR 2840)`, function () {
  this.timeout(90_000);

  if (v8Major < 12) {
    it('V8 11 (Node 20) runs no Maglev, so there is nothing to inline', async () => {
      assert.equal((await probe({ MAGLEV_INLINING: 'true' })).maglev, false);
    });
    return;
  }

  it('by default, one Maglev compile takes a fraction of the memory it takes when inlining', async () => {
    const plain = await probe({});
    const inlining = await probe({ MAGLEV_INLINING: 'true' });
    assert.ok(
      plain.maglev && inlining.maglev,
      `Maglev compiled the function: ${JSON.stringify({ plain, inlining })}`,
    );
    // Measured on Node 24.21, single-threaded: 40 kB without inlining, 327 kB with it, in
    // each of 12 runs, with two busy loops beside them or not (110–118 and 460–620 kB with
    // V8's background threads, on the machine of ADR 2840).
    assert.ok(
      inlining.mallocedKb >= 2 * plain.mallocedKb + 100,
      `V8's malloc'd peak rose ${plain.mallocedKb} kB by default and ${inlining.mallocedKb} kB with inlining`,
    );
  });
});
