import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * ADRs 2630, 2770: V8's optimizing compiler, run on undici's HTTP parser (WebAssembly) the
 * first time it gets hot, takes 20–34 MB for a moment: the gateway's peak RSS. A child
 * process applies the service settings, makes calls with `fetch` (undici) and reports
 * how far V8's peak of malloc'd memory (`peak_malloced_memory`, where its compilers work)
 * rose after the first call. That peak, not VmHWM, because the probe's own loader (tsx)
 * moves VmHWM by 9–14 MB over the same calls with or without the spike. Memory, not
 * time: a busy machine delays the optimizing compiler, so the tier-up case waits for it,
 * and the default case has nothing to wait for.
 */
const PROBE = `
import { once } from 'node:events';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { applyV8Settings } from ${JSON.stringify(new URL('../../src/v8-settings.ts', import.meta.url).href)};
applyV8Settings();
const hwmKb = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
const peakMallocedKb = () => getHeapStatistics().peak_malloced_memory / 1024;
const server = createServer((_req, res) => res.end('{"ok":true}')).listen(0, '127.0.0.1');
await once(server, 'listening');
const url = 'http://127.0.0.1:' + server.address().port + '/';
await (await fetch(url)).text();
const before = { hwm: hwmKb(), malloced: peakMallocedKb() };
const waitMs = Number(process.env.PROBE_WAIT_MS);
const until = Date.now() + waitMs;
let calls = 0;
do {
  for (let i = 0; i < 10; i++, calls++) await (await fetch(url)).text();
  await new Promise((resolve) => setTimeout(resolve, 100));
} while (Date.now() < until && peakMallocedKb() - before.malloced < 15_000);
process.stdout.write(
  JSON.stringify({ mallocedKb: Math.round(peakMallocedKb() - before.malloced), hwmKb: hwmKb() - before.hwm, calls }),
);
server.close();
process.exit(0);
`;

const probe = async (env: Record<string, string>, waitMs: number) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import=tsx', '--input-type=module', '--eval', PROBE],
    { env: { ...process.env, ...env, PROBE_WAIT_MS: String(waitMs) }, timeout: 60_000 },
  );
  return JSON.parse(stdout) as { mallocedKb: number; hwmKb: number; calls: number };
};

describe(`WebAssembly stays at its baseline tier on V8 ${process.versions.v8} (WASM_TIER_UP, ADRs 2630, 2770)`, function () {
  this.timeout(90_000);

  it("by default, calls through undici for 2 s leave V8's compilers where the first call left them", async () => {
    const { mallocedKb, hwmKb, calls } = await probe({}, 2_000);
    // Measured: 0 kB over 270 calls, on Node 20 and on Node 24.
    assert.ok(
      mallocedKb < 5_000,
      `V8's malloc'd peak rose ${mallocedKb} kB (VmHWM ${hwmKb} kB) over ${calls} calls`,
    );
  });

  it('with WASM_TIER_UP=true, the spike the default avoids shows', async () => {
    const { mallocedKb, hwmKb, calls } = await probe({ WASM_TIER_UP: 'true' }, 30_000);
    // Measured: 21–22 MB within 10 calls, on Node 20 and on Node 24.
    assert.ok(
      mallocedKb >= 15_000,
      `V8's malloc'd peak rose only ${mallocedKb} kB (VmHWM ${hwmKb} kB) over ${calls} calls`,
    );
  });
});
