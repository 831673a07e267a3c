/**
 * `BENCH_PERF=1`: an on-CPU profile of every service by Linux `perf`, cut by phase.
 *
 * V8's own profiler (`BENCH_PROFILE`) samples by the clock: a thread waiting inside a
 * `writev` for the reader it woke is counted as busy there, and on a saturated 2-core
 * machine that wait was a fifth to a third of the samples (docs/benchmarks.md, sessions
 * 35 and 45). `perf` samples only a thread that has a CPU, so its shares add up to the CPU
 * the bench's per-call figures count, threads and kernel included. Each service runs with
 * `--perf-prof`, which writes a jitdump of every function V8 compiles; `perf inject --jit`
 * then names the JavaScript frames by the code that was at an address at that moment.
 * A `--perf-basic-prof` map lists every function ever compiled at an address, and perf
 * cannot tell which one a sample hit: session 52 found a send's samples charged to the
 * create's functions, compiled earlier where the send's code later was.
 *
 * The sampling and the jitdump cost the services some CPU of their own: compare per-call
 * figures with runs made without them.
 *
 * Needs `perf` (Debian's linux-perf) allowed to sample the services (root, or
 * `kernel.perf_event_paranoid` at 0 or below) and a Node whose V8 takes
 * `--perf-prof-path` (Node 22 or later; the images run Node 24).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { EsignSystem } from '@esign/testing';
import { SERVICES, print } from './measure.js';
import { sampleReader, Tally } from './perf-samples.js';

/** Samples a second per thread: prime, so it does not beat with the services' own timers. */
export const PERF_FREQUENCY = 499;

/** Below this many samples (0.4 s of CPU) a service's split by library and system call is noise. */
const MIN_SAMPLES_TO_SPLIT = 200;

/**
 * The node options that make V8 write its jitdump into `dir`. `--perf-prof` also opens
 * V8's own log, by default `isolate-<address>-<pid>-v8.log` in the working directory (the
 * repository's root): it goes into `dir` too, one file per process.
 */
export const perfNodeArgs = (dir: string): string[] => [
  '--perf-prof',
  `--perf-prof-path=${dir}`,
  `--logfile=${join(dir, 'v8-%p.log')}`,
  '--no-logfile-per-isolate',
];

/** Fails at once, naming what is missing, rather than after the whole run. */
export const preparePerf = (dir: string): void => {
  const v8 = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  if (!v8.stdout.includes('--perf-prof-path'))
    throw new Error(
      `BENCH_PERF needs a Node whose V8 takes --perf-prof-path (Node 22 or later; this is ${process.version})`,
    );
  const version = spawnSync('perf', ['version'], { encoding: 'utf8' });
  if (version.error !== undefined || version.status !== 0)
    throw new Error('BENCH_PERF needs perf on the PATH (Debian: apt-get install linux-perf)');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
};

export interface PerfRecording {
  /** Ends the recording; answers once perf has written its file. */
  stop(): Promise<void>;
}

/** Records the processes `pids` and every thread they start, with call chains, on CLOCK_MONOTONIC. */
export const startPerf = async (dir: string, pids: readonly number[]): Promise<PerfRecording> => {
  const args = ['record', '-q', '-g', '-F', String(PERF_FREQUENCY), '-k', 'mono'];
  const child = spawn('perf', [...args, '-p', pids.join(','), '-o', join(dir, 'perf.data')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // perf refuses at once when it may not sample the processes.
  const early = await Promise.race([
    exited.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 1000)),
  ]);
  if (early) throw new Error(`perf record stopped: ${errors.trim() || `exit code ${child.exitCode}`}`);
  return {
    stop: async () => {
      child.kill('SIGINT');
      await exited;
    },
  };
};

/** A phase of the run, on the monotonic clock in µs (`monotonicUs`). */
export type Window = readonly [name: string, from: number, to: number];

/**
 * Names the JavaScript frames from the jitdumps, then sorts every sample inside one of
 * `windows` into a tally per (phase, service). The services are given by pid.
 */
export const perfReport = async (
  dir: string,
  services: ReadonlyMap<number, string>,
  windows: readonly Window[],
): Promise<Map<string, Map<string, Tally>>> => {
  const recorded = join(dir, 'perf.data');
  const named = join(dir, 'perf.jit.data');
  const inject = spawnSync('perf', ['inject', '--jit', '-i', recorded, '-o', named], { encoding: 'utf8' });
  if (inject.status !== 0) throw new Error(`perf inject --jit failed: ${inject.stderr}`);

  const tallies = new Map(windows.map(([name]) => [name, new Map<string, Tally>()]));
  const reader = sampleReader((sample) => {
    const service = services.get(sample.pid);
    const us = sample.time * 1e6;
    const window = windows.find(([, from, to]) => us >= from && us <= to);
    if (service === undefined || window === undefined) return;
    const byService = tallies.get(window[0])!;
    let tally = byService.get(service);
    if (tally === undefined) byService.set(service, (tally = new Tally()));
    tally.add(sample);
  });
  const script = spawn('perf', ['script', '-i', named, '-F', 'comm,pid,tid,time,ip,sym,dso'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const done = new Promise<number | null>((resolve) => script.once('exit', resolve));
  for await (const line of createInterface({ input: script.stdout, crlfDelay: Infinity })) reader.line(line);
  reader.end();
  const code = await done;
  if (code !== 0) throw new Error(`perf script failed (exit code ${code})`);
  return tallies;
};

/** Prints, per phase and service, where its threads' CPU went and whose code ran on its main thread. */
export const printPerfReport = async (dir: string, system: EsignSystem, windows: readonly Window[]) => {
  const services = new Map(SERVICES.map((name) => [system.services[name].process.pid ?? -1, name]));
  const tallies = await perfReport(dir, services, windows);
  print(
    `(7) on-CPU samples of each service by perf (${PERF_FREQUENCY} Hz, every thread; shares of the service's samples in the phase; files in ${dir})`,
  );
  for (const [phase, byService] of tallies) {
    print(`  ${phase}`);
    for (const name of SERVICES) {
      const tally = byService.get(name);
      if (tally === undefined || tally.samples === 0) continue;
      print(`    ${name} (${tally.samples} samples): ${tally.largest(tally.kinds, 8)}`);
      // A few samples say nothing about a service that hardly ran in the phase.
      if (tally.samples < MIN_SAMPLES_TO_SPLIT) continue;
      print(`      by layer: ${tally.largest(tally.layers, 6)}`);
      print(`      main thread's code by library: ${tally.largest(tally.libraries, 8)}`);
      print(`      main thread in the kernel: ${tally.largest(tally.kernel, 6)}`);
    }
  }
  print();
};
