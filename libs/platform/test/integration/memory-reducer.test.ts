import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createLogger } from '../../src/logger.js';
import { startMemoryReducerNudging, v8NeedsNudge } from '../../src/memory-reducer.js';

/**
 * ADR 2860: after a burst, an idle process hands its heap back once the memory reducer
 * runs. A child process makes about 450 MB of garbage in a burst, then idles and reads
 * its RSS every 250 ms until it falls below half the burst's peak, or until its time is
 * up. With the nudge, V8's memory reducer starts a GC that reduces memory at one of its
 * 8 s checks. Without it, V8 13 (Node 24) answers "high alloc" at every check and holds
 * the pages until its watchdog, 100 s after the last full GC. Idle time, not CPU time:
 * a busy machine slows the burst, not the reducer's clock.
 *
 * V8 11 (Node 20) gets no nudge, and what its own reducer does is not ours to test: it
 * hands the pages back at once when the burst's last GC ran near its end, and otherwise
 * held them for 30–60 s and more whether or not the nudge ran (session 54; the Node 20
 * pass of a `.ci/run` failed with 470 MB of a 479 MB burst held after 60 s).
 */
const PROBE = `
import { startMemoryReducerNudge } from ${JSON.stringify(new URL('../../src/memory-reducer.ts', import.meta.url).href)};
if (process.env.NUDGE === 'true') startMemoryReducerNudge();
let ring = [];
for (let round = 0; round < 400; round++) {
  ring.push(Array.from({ length: 20000 }, (_, j) => ({ j, s: 'x' + j + '.' + round })));
  if (ring.length > 80) ring = [];
}
ring = undefined;
const peak = process.memoryUsage.rss();
const started = Date.now();
const timer = setInterval(() => {
  const rss = process.memoryUsage.rss();
  const waited = Date.now() - started;
  if (rss >= peak / 2 && waited < Number(process.env.WAIT_MS)) return;
  clearInterval(timer);
  process.stdout.write(JSON.stringify({ peakMb: peak / 1048576, rssMb: rss / 1048576, waited }));
}, 250);
`;

interface Outcome {
  readonly peakMb: number;
  readonly rssMb: number;
  readonly waited: number;
}

const idleAfterBurst = async (nudge: boolean, waitMs: number): Promise<Outcome> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import=tsx', '--input-type=module', '--eval', PROBE],
    {
      env: {
        ...process.env,
        NUDGE: String(nudge),
        WAIT_MS: String(waitMs),
        NODE_OPTIONS: '--max-semi-space-size=8',
      },
      timeout: waitMs + 60_000,
    },
  );
  return JSON.parse(stdout) as Outcome;
};

const show = (o: Outcome) => `peak ${o.peakMb.toFixed(0)} MB, ${o.rssMb.toFixed(0)} MB after ${o.waited} ms`;

describe(`the memory reducer nudged on V8 ${process.versions.v8} (ADR 2860)`, function () {
  this.timeout(180_000);

  if (!v8NeedsNudge()) {
    it('V8 11 (Node 20): a service starts no nudge', () => {
      assert.equal(startMemoryReducerNudging(createLogger('test', 'silent'), {}), undefined);
    });
    return;
  }

  it('with the nudge, an idle process hands back what a burst left within a minute', async () => {
    const [nudged, control] = await Promise.all([
      idleAfterBurst(true, 60_000),
      // Without the nudge the same burst is still held half a minute later, which shows
      // this test can fail.
      idleAfterBurst(false, 30_000),
    ]);
    assert.ok(nudged.peakMb > 200, `the burst reached only ${show(nudged)}`);
    assert.ok(nudged.rssMb < nudged.peakMb / 2, `with the nudge: ${show(nudged)}`);
    assert.ok(control.rssMb >= control.peakMb / 2, `without the nudge: ${show(control)}`);
  });
});
