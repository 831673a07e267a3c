import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { ConfigError } from '../../src/index.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics.js';
import {
  mallocTrimFigures,
  startMallocTrimmer,
  startMallocTrimming,
  trimPolicy,
} from '../../src/malloc-trim.js';

const MB = 1024 * 1024;

/** Feeds RSS readings (MB) at 100 ms steps; answers the steps at which a trim was due. */
const trimsAt = (readings: readonly number[], riseMb = 3, settleMs = 1_000): number[] => {
  const policy = trimPolicy({ riseBytes: riseMb * MB, settleMs });
  const due: number[] = [];
  readings.forEach((mb, step) => {
    if (!policy.due(mb * MB, step * 100)) return;
    due.push(step);
    policy.trimmed(mb * MB, step * 100);
  });
  return due;
};

describe('malloc trimming: when (ADR 2750)', () => {
  it('trims when RSS rises by the set amount above its lowest since the last trim', () => {
    assert.deepEqual(trimsAt([100, 101, 102, 102.9]), []);
    assert.deepEqual(trimsAt([100, 101, 102, 103]), [3]);
    // The lowest reading counts, not the first.
    assert.deepEqual(trimsAt([100, 98, 100, 101]), [3]);
  });

  it('measures the next rise from RSS after the trim', () => {
    // Trimmed at 103 with RSS still 103 after: the next trim needs 106.
    assert.deepEqual(trimsAt([100, 103, 105.9, 106]), [1, 3]);
  });

  it('trims once more a settle period after the last trim, if RSS grew since', () => {
    const readings = [100, 103, ...Array<number>(12).fill(104.5)];
    // The rise trim at step 1, then 10 steps (1 s) later a settle trim: RSS grew 1.5 MB.
    assert.deepEqual(trimsAt(readings), [1, 11]);
    // Without growth since the trim, no settle trim.
    assert.deepEqual(trimsAt([100, 103, ...Array<number>(12).fill(103.5)]), [1]);
  });

  it('an idle process trims once, a settle period after start, and then no more', () => {
    assert.deepEqual(trimsAt(Array<number>(40).fill(80)), [10]);
  });

  it('the trimmer calls malloc_trim(0) when due, and counts what RSS gave back and the time it took', async () => {
    const rss = [100, 100, 104, 90, 90, 90, 90, 90];
    const calls: number[] = [];
    // The clock moves 7 ms at each reading; the trim lies between two readings.
    let clock = 0;
    const before = mallocTrimFigures();
    const trimmer = startMallocTrimmer({
      trim: (pad) => (calls.push(pad), 1),
      riseBytes: 3 * MB,
      checkMs: 5,
      settleMs: 60_000,
      rss: () => (rss.shift() ?? 90) * MB,
      now: () => (clock += 7),
    });
    assert.equal(mallocTrimFigures().enabled, true);
    for (let waited = 0; calls.length === 0 && waited < 5_000; waited += 10) await sleep(10);
    trimmer.stop();
    assert.deepEqual(calls, [0]);
    const after = mallocTrimFigures();
    assert.equal(after.enabled, false);
    assert.equal(after.trims - before.trims, 1);
    // Read at 104 before and 90 after.
    assert.equal(after.releasedBytes - before.releasedBytes, 14 * MB);
    assert.ok(Math.abs(after.seconds - before.seconds - 0.007) < 1e-9, `${after.seconds - before.seconds} s`);
  });

  it('/metrics says whether trimming is on and what it did', async () => {
    const metrics = createMetrics('test');
    const off = await metrics.render();
    assert.match(off, /^process_malloc_trim_enabled\{service="test"\} 0$/m);
    const trimmer = startMallocTrimmer({ trim: () => 1, riseBytes: MB, checkMs: 60_000, settleMs: 60_000 });
    try {
      const on = await metrics.render();
      assert.match(on, /^process_malloc_trim_enabled\{service="test"\} 1$/m);
      const { trims, releasedBytes, seconds } = mallocTrimFigures();
      assert.match(on, new RegExp(`^process_malloc_trims_total\\{service="test"\\} ${trims}$`, 'm'));
      assert.match(
        on,
        new RegExp(`^process_malloc_trim_released_bytes_total\\{service="test"\\} ${releasedBytes}$`, 'm'),
      );
      assert.match(on, new RegExp(`^process_malloc_trim_seconds_total\\{service="test"\\} ${seconds}$`, 'm'));
    } finally {
      trimmer.stop();
    }
  });
});

describe('malloc trimming: MALLOC_TRIM_RISE_MB', () => {
  const logger = createLogger('test', 'silent');

  it('is 8 MB unless set (ADR 2760)', () => {
    const lines: string[] = [];
    const capture = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const trimmer = startMallocTrimming(capture, {});
    trimmer?.stop();
    const on = lines
      .map((line) => JSON.parse(line) as { msg: string; riseMb?: number })
      .find((l) => l.msg === 'malloc trimming on');
    assert.equal(on?.riseMb, 8, lines.join(''));
  });

  it('0 turns it off', () => {
    assert.equal(startMallocTrimming(logger, { MALLOC_TRIM_RISE_MB: '0' }), undefined);
  });

  it('refuses a value that is not a whole number of MB from 0 to 1024, naming the variable', () => {
    for (const value of ['-1', '2.5', 'lots', '1025'])
      assert.throws(
        () => startMallocTrimming(logger, { MALLOC_TRIM_RISE_MB: value }),
        (error: Error) => error instanceof ConfigError && /MALLOC_TRIM_RISE_MB/.test(error.message),
      );
  });
});
