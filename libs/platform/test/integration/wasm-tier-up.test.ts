import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * ADR 2630: V8's optimizing compiler, run on undici's HTTP parser (WebAssembly) the first
 * time it gets hot, takes about 34 MB for a moment on Node 20: the gateway's peak RSS.
 * A child process applies the service settings, makes calls with `fetch` (undici) and
 * reports how far its peak RSS (VmHWM) rose after the first call. Memory, not time: a
 * busy machine delays the optimizing compiler, so the tier-up case waits for it, and the
 * default case has nothing to wait for.
 */
const PROBE = `
import { once } from 'node:events';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { applyV8Settings } from ${JSON.stringify(new URL('../../src/v8-settings.ts', import.meta.url).href)};
applyV8Settings();
const hwmKb = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
const server = createServer((_req, res) => res.end('{"ok":true}')).listen(0, '127.0.0.1');
await once(server, 'listening');
const url = 'http://127.0.0.1:' + server.address().port + '/';
await (await fetch(url)).text();
const before = hwmKb();
const waitMs = Number(process.env.PROBE_WAIT_MS);
const until = Date.now() + waitMs;
let calls = 0;
do {
  for (let i = 0; i < 10; i++, calls++) await (await fetch(url)).text();
  await new Promise((resolve) => setTimeout(resolve, 100));
} while (Date.now() < until && hwmKb() - before < 20_000);
process.stdout.write(JSON.stringify({ grewKb: hwmKb() - before, calls }));
server.close();
process.exit(0);
`;

const probe = async (env: Record<string, string>, waitMs: number) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import=tsx', '--input-type=module', '--eval', PROBE],
    { env: { ...process.env, ...env, PROBE_WAIT_MS: String(waitMs) }, timeout: 60_000 },
  );
  return JSON.parse(stdout) as { grewKb: number; calls: number };
};

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

// Node 20's V8 only: Node 24's optimizes the parser without the spike, and the probe's
// own loader (tsx) moves its peak there by about 22 MB either way, which would hide it.
(NODE_MAJOR === 20 ? describe : describe.skip)(
  'WebAssembly stays at its baseline tier (WASM_TIER_UP, ADR 2630)',
  function () {
    this.timeout(90_000);

    it('by default, a hundred calls through undici leave the peak RSS where the first left it', async () => {
      const { grewKb, calls } = await probe({}, 1_000);
      assert.ok(grewKb < 12_000, `peak RSS rose ${grewKb} kB over ${calls} calls`);
    });

    it('with WASM_TIER_UP=true, the spike the default avoids shows', async () => {
      const { grewKb, calls } = await probe({ WASM_TIER_UP: 'true' }, 30_000);
      assert.ok(grewKb >= 20_000, `peak RSS rose only ${grewKb} kB over ${calls} calls`);
    });
  },
);
