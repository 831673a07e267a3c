import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * ADR 2600: `HEAP_GROWING_PERCENT` must reach the V8 that runs the test, whichever Node it
 * is (CI runs this suite on Node 20 and on Node 24, the images' Node). A child process
 * applies the service settings, keeps about 30 MB live and makes garbage that lives long
 * enough to reach the old generation, then reports the largest heap it saw. With the
 * default (50 %) V8 collects the old generation when it is half again what the last full
 * GC kept; with 0 it uses its own factor (up to 4×). Memory, not time: the heap's size
 * follows allocation, which a busy machine slows but does not change.
 */
const PROBE = `
import { getHeapStatistics } from 'node:v8';
import { applyV8Settings } from ${JSON.stringify(new URL('../../src/v8-settings.ts', import.meta.url).href)};
applyV8Settings();
const live = Array.from({ length: 30 }, (_, i) => new Array(131072).fill(i));
const ring = [];
let peak = 0;
for (let round = 0; round < 3000; round++) {
  ring.push(Array.from({ length: 2000 }, (_, j) => ({ j, s: 'x' + j + '.' + round })));
  if (ring.length > 200) ring.shift();
  if (round % 20 === 0) peak = Math.max(peak, getHeapStatistics().total_heap_size);
}
// \`live\` is printed so that it stays reachable until the end.
process.stdout.write(JSON.stringify({ peakMb: peak / 1e6, live: live.length }));
`;

const peakHeapMb = async (heapGrowingPercent: string) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import=tsx', '--input-type=module', '--eval', PROBE],
    {
      env: {
        ...process.env,
        HEAP_GROWING_PERCENT: heapGrowingPercent,
        // The young generation every service is started with (ADR 2600).
        NODE_OPTIONS: '--max-semi-space-size=8',
      },
      timeout: 60_000,
    },
  );
  return (JSON.parse(stdout) as { peakMb: number }).peakMb;
};

describe(`HEAP_GROWING_PERCENT reaches V8 ${process.versions.v8} (ADR 2600)`, function () {
  this.timeout(120_000);

  it("with 50 % (the default), the heap peaks at well under what V8's own factor lets it reach", async () => {
    const limited = await peakHeapMb('50');
    const own = await peakHeapMb('0');
    // Measured: 145–151 MB against 339 on Node 20, 181–189 against 377–382 on Node 24.
    assert.ok(limited < own * 0.7, `peak heap ${limited.toFixed(1)} MB limited, ${own.toFixed(1)} MB not`);
  });
});
