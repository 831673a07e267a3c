import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { inProcessOfItsOwn } from '@esign/testing';

/**
 * ADR 2750 against the real C library, through koffi, on whichever Node runs the test.
 * A child process fills 64 MB with 16 kB buffers, which malloc serves from its arena,
 * keeps one more made after them and lets the rest go. glibc keeps the freed block
 * (the kept buffer sits above it), so RSS stays up: the case the trimmer is for. Then
 * the trimmer starts, and RSS must come down on its own. Memory, not time: the probe
 * waits for the outcome, and a busy machine only makes it wait longer.
 */
const PROBE = `
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { bindMallocTrim, mallocTrimFigures, startMallocTrimmer } from ${JSON.stringify(new URL('../../src/malloc-trim.ts', import.meta.url).href)};
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = () => process.memoryUsage.rss() / 1048576;
const collect = async () => { for (let i = 0; i < 3; i++) { gc(); await pause(100); } };
await collect();
const base = rssMb();
let chunks = Array.from({ length: 4096 }, () => Buffer.allocUnsafeSlow(16384).fill(1));
const kept = Buffer.allocUnsafeSlow(16384).fill(2);
const filled = rssMb();
chunks = undefined;
await collect();
const held = rssMb();
const trim = bindMallocTrim();
if (trim instanceof Error) throw trim;
const trimmer = startMallocTrimmer({ trim, riseBytes: 3 << 20, checkMs: 20, settleMs: 200 });
let after = rssMb();
for (let waited = 0; after > held - 40 && waited < 30000; waited += 50) { await pause(50); after = rssMb(); }
trimmer.stop();
process.stdout.write(JSON.stringify({ base, filled, held, after, trims: mallocTrimFigures().trims, kept: kept[0] }));
`;

describe('malloc trimming with the real C library (ADR 2750)', () => {
  it('hands back what malloc holds free, which glibc alone keeps', async function () {
    this.timeout(60_000);
    const seen = (await inProcessOfItsOwn(
      fileURLToPath(new URL('../..', import.meta.url)),
      [],
      PROBE,
    )) as Record<string, number>;
    const report = JSON.stringify(seen);
    assert.ok(seen.filled! - seen.base! >= 56, `64 MB of buffers raised RSS: ${report}`);
    // The case trimming is for: freed, collected, and still resident.
    assert.ok(seen.held! - seen.base! >= 48, `glibc kept the freed buffers: ${report}`);
    assert.ok(seen.held! - seen.after! >= 40, `the trimmer gave them back: ${report}`);
    assert.ok(seen.trims! >= 1, report);
  });
});
