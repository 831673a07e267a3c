/**
 * The bench's runs and what it prints of them: an autocannon run with the CPU the services
 * spent, the lines of a run and of a send phase, and the bare koa ceiling's process.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { repoRoot, type EsignSystem } from '@esign/testing';
import { cpuPerCall, cpuSeconds, cpuText, monotonicUs, ms, print, type CpuPerCall } from './measure.js';
import type { SendPhase } from './send.js';

export interface Run {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** CPU time per successful call, per service and summed: the steadiest figure here. */
  readonly cpu?: CpuPerCall;
  /** The measured part on the monotonic clock (µs), to cut it out of a CPU profile. */
  readonly window?: readonly [number, number];
}

/** One autocannon run; a warm-up of 2 s first so pools, JIT and caches are hot. */
export const load = async (
  system: EsignSystem,
  options: autocannon.Options,
  expected: number,
  seconds: number,
): Promise<Run> => {
  await autocannon({ ...options, duration: 2 });
  const before = cpuSeconds(system);
  const from = monotonicUs();
  const result = await autocannon({ ...options, duration: seconds });
  const to = monotonicUs();
  const after = cpuSeconds(system);
  const stats = (result.statusCodeStats ?? {}) as Record<string, { count: number } | undefined>;
  const ok = stats[String(expected)]?.count ?? 0;
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (result.requests.total - ok),
    cpu: cpuPerCall(before, after, ok),
    window: [from, to],
  };
};

export const line = (name: string, run: Run) =>
  print(
    `  ${name.padEnd(44)} ${run.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(run.p50).padStart(9)}   p99 ${ms(run.p99).padStart(9)}${run.errors > 0 ? `   (${run.errors} not ok)` : ''}${run.cpu ? `\n  ${''.padEnd(44)} CPU per call: ${cpuText(run.cpu)}` : ''}`,
  );

export const sendLine = (send: SendPhase) => {
  print(
    `  ${send.count} sends at ${send.achieved.toFixed(1)}/s: send → e-mail p50 ${ms(send.p50)}, p99 ${ms(send.p99)}, max ${ms(send.max)}; the send call itself p50 ${ms(send.sendP50)}, p99 ${ms(send.sendP99)}${send.failures > 0 ? ` (${send.failures} not sent or not arrived)` : ''}`,
  );
  print(`  stages: ${send.stages}`);
  print(`  CPU per send: ${cpuText(send.cpu)}`);
  print(`  CPU (of one core) from the first send to the last e-mail: ${send.busy}`);
};

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
