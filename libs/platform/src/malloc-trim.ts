import { createRequire } from 'node:module';
import type Koffi from 'koffi';
import * as t from 'io-ts';
import { IntFromEnv, decodeConfig, loadConfigOrExit } from './config.js';
import type { Logger } from './logger.js';

/**
 * Hands the memory that glibc's malloc holds free back to the system (ADRs 2750, 2760).
 *
 * A service's JIT compilers, its parsers and Node's socket buffers allocate with malloc,
 * outside V8's heap. glibc keeps what they free and returns it only from the top of each
 * arena, so a burst leaves a service holding tens of MB it no longer uses: 15–25 MB in
 * requests on Node 24 under the bench's create load. `malloc_trim(0)` returns every free
 * page of every arena. Nothing in Node calls it, so it is bound through koffi, an FFI
 * library that ships its native part prebuilt.
 *
 * When: RSS is read every `checkMs` (one read of /proc/self/stat). A trim runs when RSS
 * has risen `riseBytes` above the lowest it was since the last trim (a burst is under
 * way), and once after `settleMs` without one if RSS has grown since (what a burst freed
 * after it ended). An idle service trims once and then no more.
 *
 * A trim is not cheap, and the event loop waits for it: `malloc_trim` walks every free
 * chunk and calls `madvise` on each that spans a page, whether its pages are resident or
 * not. It took requests 0.3–0.7 ms on one machine; on a slower one, a service's trims
 * took 1–40 ms of CPU, usually 5–15, and up to 221 ms of wall time on 2 busy cores. Under
 * steady load the pages a trim returns are soon used again, so a small `riseBytes` trims
 * over and over for a few MB each time; the default rise is large enough to leave that
 * alone and still catch a burst (ADR 2760).
 */
export interface TrimPolicy {
  /** Whether to trim now, given RSS in bytes and the time in ms. */
  due(rss: number, now: number): boolean;
  /** After a trim: RSS then, and the time. */
  trimmed(rss: number, now: number): void;
}

export const trimPolicy = (options: {
  readonly riseBytes: number;
  readonly settleMs: number;
}): TrimPolicy => {
  // A settle trim needs some growth since the last trim: an idle service's RSS wobbles.
  const GROWN = 1 << 20;
  let floor = Number.POSITIVE_INFINITY;
  let afterLast = 0;
  // The last trim, or the first check before any.
  let lastAt: number | undefined;
  return {
    due(rss, now) {
      lastAt ??= now;
      floor = Math.min(floor, rss);
      if (rss >= floor + options.riseBytes) return true;
      return now - lastAt >= options.settleMs && rss >= afterLast + GROWN;
    },
    trimmed(rss, now) {
      floor = rss;
      afterLast = rss;
      lastAt = now;
    },
  };
};

/** What the trimmer has done in this process, for `/metrics`. */
export interface MallocTrimFigures {
  readonly enabled: boolean;
  readonly trims: number;
  readonly releasedBytes: number;
  /** Time spent in `malloc_trim`, in seconds: the event loop waits for every call. */
  readonly seconds: number;
}

const figures = { enabled: false, trims: 0, releasedBytes: 0, seconds: 0 };
export const mallocTrimFigures = (): MallocTrimFigures => ({ ...figures });

// Loaded only when trimming starts: a service with MALLOC_TRIM_RISE_MB=0 never loads it.
const requireHere = createRequire(import.meta.url);

/** `malloc_trim` from the C library, or why it cannot be had here (not Linux, not glibc). */
export const bindMallocTrim = (): ((pad: number) => number) | Error => {
  if (process.platform !== 'linux') return new Error(`not on Linux (${process.platform})`);
  try {
    const koffi = requireHere('koffi') as typeof Koffi;
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return (pad: number) => trim(pad) as number;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
};

export interface MallocTrimmer {
  stop(): void;
}

/** Starts the checks on a timer that never keeps the process alive. */
export const startMallocTrimmer = (options: {
  readonly trim: (pad: number) => number;
  readonly riseBytes: number;
  readonly checkMs: number;
  readonly settleMs: number;
  readonly rss?: () => number;
  readonly now?: () => number;
}): MallocTrimmer => {
  const rss = options.rss ?? (() => process.memoryUsage.rss());
  const now = options.now ?? (() => performance.now());
  const policy = trimPolicy(options);
  figures.enabled = true;
  const timer = setInterval(() => {
    const before = rss();
    const startedAt = now();
    if (!policy.due(before, startedAt)) return;
    options.trim(0);
    const after = rss();
    const endedAt = now();
    policy.trimmed(after, endedAt);
    figures.trims += 1;
    figures.releasedBytes += Math.max(0, before - after);
    figures.seconds += (endedAt - startedAt) / 1000;
  }, options.checkMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      figures.enabled = false;
    },
  };
};

/** How often RSS is read, and how long after a trim a settle trim may follow. */
export const TRIM_CHECK_MS = 1_000;
export const TRIM_SETTLE_MS = 10_000;

const TrimEnv = t.type({ MALLOC_TRIM_RISE_MB: IntFromEnv(0, 1024) });
const trimDefaults = { MALLOC_TRIM_RISE_MB: '8' };
const trimEnvOf = (env: NodeJS.ProcessEnv) => ({ MALLOC_TRIM_RISE_MB: env.MALLOC_TRIM_RISE_MB });

const start = (settings: t.TypeOf<typeof TrimEnv>, logger: Logger): MallocTrimmer | undefined => {
  const riseMb = settings.MALLOC_TRIM_RISE_MB;
  if (riseMb === 0) {
    logger.info('malloc trimming off (MALLOC_TRIM_RISE_MB=0)');
    return undefined;
  }
  const trim = bindMallocTrim();
  if (trim instanceof Error) {
    logger.info({ reason: trim.message }, 'malloc trimming unavailable');
    return undefined;
  }
  logger.info({ riseMb }, 'malloc trimming on');
  return startMallocTrimmer({
    trim,
    riseBytes: riseMb * 1024 * 1024,
    checkMs: TRIM_CHECK_MS,
    settleMs: TRIM_SETTLE_MS,
  });
};

/** Reads `MALLOC_TRIM_RISE_MB` (default 8; 0 turns trimming off); a wrong value throws a `ConfigError`. */
export const startMallocTrimming = (logger: Logger, env: NodeJS.ProcessEnv = process.env) =>
  start(decodeConfig(TrimEnv, trimDefaults, trimEnvOf(env)), logger);

/** For `runMain`: as `startMallocTrimming`, or stops start-up with exit code 78 on a wrong value. */
export const startMallocTrimmingOrExit = (logger: Logger, env: NodeJS.ProcessEnv = process.env) =>
  start(loadConfigOrExit(TrimEnv, trimDefaults, trimEnvOf(env)), logger);
