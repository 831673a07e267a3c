/**
 * Creates at a steady, moderate rate on both paths side by side, with every service's full
 * GCs traced: which of them V8's memory reducer started (ADR 2860), whether they came while
 * the load ran or after it, how long each paused, and the latency of every call (p50, p99,
 * p99.9, max). It answers whether a service that V8 counts as quiet under light load pays
 * for the memory it gives back in its tail latency: run it with V8_MEMORY_REDUCER_NUDGE
 * true and false, which the services inherit, and on Node 20 and Node 24.
 *
 *   npm run bench:steady                      (about 2 minutes)
 *   V8_MEMORY_REDUCER_NUDGE=false npm run bench:steady
 *
 * Settings: bench/support/settings.ts. The services run at LOG_LEVEL=warn, so their output
 * holds the GC trace and little else.
 */
import { readFileSync } from 'node:fs';
import { startEsignSystem, statFields, useLocalServers, type EsignSystem } from '@esign/testing';
import { createBody } from './support/bodies.js';
import { SERVICES, ms, print, sleep, type ServiceName } from './support/measure.js';
import { sideBySide, type PathLatency } from './support/runs.js';
import {
  RATE_LIMITS_TEXT,
  SMOKE,
  STEADY_IDLE_SECONDS,
  STEADY_RATE,
  STEADY_SECONDS,
  benchServiceEnv,
} from './support/settings.js';
import { prepareCreates } from './support/tenant.js';

useLocalServers();

/** A full GC in `--trace-gc`'s words: when (ms since the service started), reducing or not, its pause. */
interface FullGc {
  readonly at: number;
  readonly reducing: boolean;
  readonly pauseMs: number;
}

/** The mark-compact lines of a `--trace-gc` log (V8 11 and 13 both write "…, <pause> / <x> ms"). */
const fullGcs = (log: string): FullGc[] =>
  [...log.matchAll(/(\d+) ms: Mark-Compact( \(reduce\))? .*?, ([\d.]+) \/ [\d.]+ ms/g)].map((m) => ({
    at: Number(m[1]),
    reducing: m[2] !== undefined,
    pauseMs: Number(m[3]),
  }));

/** How long the service has run, in ms (`/proc/<pid>/stat`'s start time against `/proc/uptime`). */
const uptimeMs = (system: EsignSystem, name: ServiceName): number => {
  const startedTicks = Number(statFields(system.services[name].process.pid)[19]);
  const up = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  return Math.round((up - startedTicks / 100) * 1000);
};

const gcText = (gcs: readonly FullGc[]) => {
  const reducing = gcs.filter((g) => g.reducing).length;
  const pauses = gcs.map((g) => `${g.reducing ? '*' : ''}${g.pauseMs.toFixed(1)}`).join(', ');
  return gcs.length === 0 ? 'none' : `${gcs.length} (pauses ${pauses} ms), ${reducing} reducing`;
};

const latencyText = (name: string, l: PathLatency) =>
  `  ${name.padEnd(8)} p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, p99.9 ${ms(l.p999)}, max ${ms(l.max)} (${l.ok} calls${l.errors > 0 ? `, ${l.errors} not ok` : ''})`;

const main = async () => {
  const nodeArgs = [
    ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== ''),
    '--trace-gc',
    '--trace-gc-ignore-scavenger',
  ];
  const system = await startEsignSystem({
    label: 'steady',
    migrateFirst: true,
    env: await benchServiceEnv({ LOG_LEVEL: 'warn' }),
    nodeArgs: Object.fromEntries(SERVICES.map((name) => [name, nodeArgs])),
  });
  try {
    const { template, auth, direct, createPath } = await prepareCreates(system, 'Steady');
    print(
      `Steady creates: ${STEADY_RATE}/s straight to requests and ${STEADY_RATE}/s through the gateway, side by side for ${STEADY_SECONDS} s, then ${STEADY_IDLE_SECONDS} s idle; Node ${process.version} (V8 ${process.versions.v8}; the nudge runs on V8 13 and later), V8_MEMORY_REDUCER_NUDGE=${process.env.V8_MEMORY_REDUCER_NUDGE ?? 'true (default)'}; ${RATE_LIMITS_TEXT}${SMOKE ? ' (smoke run: figures mean nothing)' : ''}`,
    );
    const from = Object.fromEntries(SERVICES.map((name) => [name, uptimeMs(system, name)]));
    const run = await sideBySide(
      {
        url: `${system.services.requests.url}${createPath}`,
        headers: direct,
        body: () => createBody(template, true),
      },
      { url: `${system.gatewayUrl}${createPath}`, headers: auth, body: () => createBody(template, true) },
      201,
      STEADY_RATE,
      STEADY_SECONDS,
    );
    const to = Object.fromEntries(SERVICES.map((name) => [name, uptimeMs(system, name)]));
    print(latencyText('direct', run.a));
    print(latencyText('gateway', run.b));
    print(`  gateway - direct: p50 ${ms(run.b.p50 - run.a.p50)}, p99 ${ms(run.b.p99 - run.a.p99)}`);
    await sleep(STEADY_IDLE_SECONDS * 1000);
    print(
      '  full GCs of each service, * where the memory reducer started it: while the load ran (its warm-up included) | after it',
    );
    for (const name of SERVICES) {
      const gcs = fullGcs(system.services[name].output());
      const during = gcs.filter((g) => g.at >= from[name]! && g.at <= to[name]!);
      const after = gcs.filter((g) => g.at > to[name]!);
      print(`  ${name.padEnd(9)} ${gcText(during)} | ${gcText(after)}`);
    }
  } finally {
    await system.stop();
  }
};

await main();
