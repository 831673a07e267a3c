/**
 * The bench's runs and what it prints of them: an autocannon run with the CPU the services
 * spent, the lines of a run and of a send phase, and the bare koa ceiling's process.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { repoRoot, type EsignSystem } from '@esign/testing';
import { analyse } from './analyse.js';
import {
  cpuPerCall,
  cpuSeconds,
  cpuText,
  monotonicUs,
  ms,
  percentile,
  print,
  redisScriptCalls,
  redisText,
  sleep,
  wakeUpText,
  wakeUps,
  type CpuPerCall,
} from './measure.js';
import type { SendPhase } from './send.js';

export interface Run {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** CPU time per successful call, per service and summed: the steadiest figure here. */
  readonly cpu?: CpuPerCall;
  /** Script calls Redis ran per successful call: the rate limits' round trips (ADR 903). */
  readonly redisScripts?: number;
  /** The services' main threads' wake-ups per successful call (`wakeUpText`). */
  readonly wakeUps?: string;
  /** The measured part on the monotonic clock (µs), to cut it out of a CPU profile. */
  readonly window?: readonly [number, number];
}

/**
 * One autocannon run; a warm-up of 2 s first so pools, JIT and caches are hot, then the
 * databases analysed, as autovacuum would have by then (`analyse`).
 */
export const load = async (
  system: EsignSystem,
  options: autocannon.Options,
  expected: number,
  seconds: number,
): Promise<Run & { readonly window: readonly [number, number] }> => {
  await autocannon({ ...options, duration: 2 });
  await analyse(system);
  const scriptsBefore = await redisScriptCalls();
  const wakeUpsBefore = wakeUps(system);
  const before = cpuSeconds(system);
  const from = monotonicUs();
  const result = await autocannon({ ...options, duration: seconds });
  const to = monotonicUs();
  const after = cpuSeconds(system);
  const wakeUpsAfter = wakeUps(system);
  const scripts = (await redisScriptCalls()) - scriptsBefore;
  const stats = (result.statusCodeStats ?? {}) as Record<string, { count: number } | undefined>;
  const ok = stats[String(expected)]?.count ?? 0;
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (result.requests.total - ok),
    cpu: cpuPerCall(before, after, ok),
    redisScripts: scripts / Math.max(ok, 1),
    wakeUps: wakeUpText(wakeUpsBefore, wakeUpsAfter, ok),
    window: [from, to],
  };
};

/** One path's answers in a side-by-side run: percentiles of every call (µs precision). */
export interface PathLatency {
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  readonly ok: number;
  readonly errors: number;
}

/** A call made by `sideBySide`: where, with what headers, and a fresh body for each. */
export interface PairedCall {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: () => string;
}

/**
 * Two paths driven at the same steady rate at the same moments (call i of each is due at
 * i / rate seconds, whether or not earlier calls answered), so both see the same machine:
 * the difference of their percentiles is the path's, not the machine's drift between two
 * runs. Below saturation, latency is the call's own time, not queueing behind a burst.
 */
export const sideBySide = async (
  a: PairedCall,
  b: PairedCall,
  expected: number,
  rate: number,
  seconds: number,
): Promise<{ readonly rate: number; readonly a: PathLatency; readonly b: PathLatency }> => {
  const drive = async (count: number) => {
    const times: [number[], number[]] = [[], []];
    const errors = [0, 0];
    const calls: Promise<void>[] = [];
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 1) await sleep(wait);
      for (const [k, call] of [a, b].entries()) {
        calls.push(
          (async () => {
            const t0 = performance.now();
            const response = await fetch(call.url, {
              method: 'POST',
              headers: call.headers,
              body: call.body(),
            });
            await response.arrayBuffer();
            if (response.status === expected) times[k]!.push(performance.now() - t0);
            else errors[k]!++;
          })().catch(() => void errors[k]!++),
        );
      }
    }
    await Promise.all(calls);
    const of = (k: 0 | 1): PathLatency => {
      const sorted = times[k].sort((x, y) => x - y);
      return {
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        p999: percentile(sorted, 99.9),
        max: sorted.at(-1) ?? Number.NaN,
        ok: sorted.length,
        errors: errors[k]!,
      };
    };
    return { rate, a: of(0), b: of(1) };
  };
  await drive(Math.max(1, rate * 2)); // warm-up
  return drive(Math.max(1, Math.round(rate * seconds)));
};

export const line = (name: string, run: Run) =>
  print(
    `  ${name.padEnd(44)} ${run.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(run.p50).padStart(9)}   p99 ${ms(run.p99).padStart(9)}${run.errors > 0 ? `   (${run.errors} not ok)` : ''}${run.cpu ? `\n  ${''.padEnd(44)} CPU per call: ${cpuText(run.cpu)}${redisText(run.redisScripts ?? 0)}` : ''}${run.wakeUps ? `\n  ${''.padEnd(44)} wake-ups per call: ${run.wakeUps}` : ''}`,
  );

export const sendLine = (send: SendPhase) => {
  print(
    `  ${send.count} sends at ${send.achieved.toFixed(1)}/s: send → e-mail p50 ${ms(send.p50)}, p99 ${ms(send.p99)}, max ${ms(send.max)}; the send call itself p50 ${ms(send.sendP50)}, p99 ${ms(send.sendP99)}${send.failures > 0 ? ` (${send.failures} not sent or not arrived)` : ''}`,
  );
  print(`  stages: ${send.stages}`);
  print(`  CPU per send: ${cpuText(send.cpu)}${redisText(send.redisScripts, 'send')}`);
  print(`  wake-ups per send: ${send.wakeUps}`);
  print(`  CPU (of one core) from the first send to the last e-mail: ${send.busy}`);
};

/** One phase of the send ramp. */
export const rampLine = (phase: SendPhase) =>
  print(
    `    ${String(phase.rate).padStart(4)}/s: achieved ${phase.achieved.toFixed(1)}/s, send → e-mail p50 ${ms(phase.p50)}, p99 ${ms(phase.p99)}${phase.failures > 0 ? `, ${phase.failures} not sent or not arrived` : ''}; CPU per send ${ms(phase.cpu.totalMs)}`,
  );

/** The bare koa ceiling, in a process of its own like a service. */
export const startBareKoa = async () => {
  const child = spawn(process.execPath, [join(repoRoot, 'bench', 'support', 'bare-koa.mjs')], {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`bare koa exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
};
