import { Script } from 'node:vm';
import * as t from 'io-ts';
import { BoolFromEnv, decodeConfig, loadConfigOrExit } from './config.js';
import type { Logger } from './logger.js';

/**
 * Lets V8's memory reducer run on Node 24 (ADR 2860).
 *
 * After a full GC, V8 puts the pages it emptied in a pool for reuse. V8 13 (Node 24) keeps
 * pooled pages resident and hands them back to the system only in a GC that reduces
 * memory; V8 11 (Node 20) uncommitted them at once. Such a GC is started by the memory
 * reducer, which checks every 8 s whether the process has gone quiet: low allocation in the
 * young generation, in the old generation and on the embedder's heap (cppgc, where Node
 * allocates a few objects of its own). V8 13 takes an embedder throughput of exactly zero
 * for maximal allocation, and a service that never allocates there has exactly zero. So
 * the reducer answers "high alloc" at every check, idle or not, and a service keeps what a
 * burst left in the pool and in half-empty pages until a watchdog GC, 100 s after the last
 * full GC: never, if anything allocates now and then. `--trace-memory-reducer` shows it.
 *
 * The nudge compiles `0` as a `vm.Script` once a second: Node allocates each script's
 * wrapper on the cppgc heap, so the embedder's throughput stays a tiny positive figure,
 * which the reducer reads as quiet. About 3 µs a second. Under heavy load the young and old
 * generations still answer "high alloc"; under light load V8 may count a service quiet and
 * reduce, as V8 11 (Node 20) does, which needs no nudge (`npm run bench:steady`).
 */
export const NUDGE_EVERY_MS = 1_000;

/** Whether this V8 counts zero embedder throughput as busy: V8 13 and later. */
export const v8NeedsNudge = (v8Version: string = process.versions.v8): boolean =>
  Number(v8Version.split('.')[0]) >= 13;

export interface MemoryReducerNudge {
  stop(): void;
}

/** Allocates on the cppgc heap every `everyMs`, on a timer that never keeps the process alive. */
export const startMemoryReducerNudge = (
  everyMs: number = NUDGE_EVERY_MS,
  allocate: () => unknown = () => new Script('0'),
): MemoryReducerNudge => {
  const timer = setInterval(allocate, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};

const NudgeEnv = t.type({ V8_MEMORY_REDUCER_NUDGE: BoolFromEnv });
const nudgeDefaults = { V8_MEMORY_REDUCER_NUDGE: 'true' };
const nudgeEnvOf = (env: NodeJS.ProcessEnv) => ({ V8_MEMORY_REDUCER_NUDGE: env.V8_MEMORY_REDUCER_NUDGE });

const start = (
  settings: t.TypeOf<typeof NudgeEnv>,
  logger: Logger,
  v8Version: string,
): MemoryReducerNudge | undefined => {
  if (!settings.V8_MEMORY_REDUCER_NUDGE) {
    logger.info('memory reducer nudge off (V8_MEMORY_REDUCER_NUDGE=false)');
    return undefined;
  }
  if (!v8NeedsNudge(v8Version)) return undefined;
  return startMemoryReducerNudge();
};

/**
 * Reads `V8_MEMORY_REDUCER_NUDGE` (default true) and starts the nudge where this V8 needs
 * it; a wrong value throws a `ConfigError` naming the variable.
 */
export const startMemoryReducerNudging = (
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
  v8Version: string = process.versions.v8,
) => start(decodeConfig(NudgeEnv, nudgeDefaults, nudgeEnvOf(env)), logger, v8Version);

/** For `runMain`: as `startMemoryReducerNudging`, or stops start-up with exit code 78 on a wrong value. */
export const startMemoryReducerNudgingOrExit = (logger: Logger, env: NodeJS.ProcessEnv = process.env) =>
  start(loadConfigOrExit(NudgeEnv, nudgeDefaults, nudgeEnvOf(env)), logger, process.versions.v8);
