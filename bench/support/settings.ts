/**
 * The settings of `npm run bench` (system.bench.ts), from its environment.
 *
 * Environment: BENCH_SECONDS (10 per run), BENCH_CONNECTIONS (16), BENCH_SEND_RATE (100
 * sends/s), BENCH_SEND_SECONDS (30), BENCH_SEND_WARMUP_SECONDS (5, sends at the same
 * rate before the measured ones, as every create run has its warm-up; 0 for none),
 * BENCH_RAMP_RATES (sends/s of the ramp's phases, comma-separated:
 * 50,100,150,200,300,400; "off" skips it), BENCH_RAMP_SECONDS (10 per
 * phase), BENCH_IDLE_SECONDS (10, the services idle: their fixed CPU cost), BENCH_REST_SECONDS
 * (30, the services at rest after the last phase: what memory they keep), BENCH_PAIRED_RATE
 * (50 creates/s on each path in the side-by-side run), BENCH_BULK_ROWS
 * (1000, the bulk send's rows), BENCH_LOG_LEVEL
 * of the services (info, as deployed), BENCH_NODE_ARGS (node options for every service,
 * e.g. V8 heap flags, space-separated), BENCH_RATE_LIMITS (on; off runs without the
 * rate limits and message quotas, as runs before session 50 did; local charges them in
 * each service's own memory, as while Redis is away, so a run tells the round trip to
 * Redis from the rest of the check), BENCH_PERF (1: an on-CPU profile of every service by
 * Linux perf, per phase; BENCH_PROFILE writes V8's own). A smoke run that only
 * checks the bench works: BENCH_SMOKE=1 (2 s runs, 20 sends/s for 3 s, a ramp of 10,20).
 *
 * `bench/steady-load.bench.ts` reads BENCH_STEADY_RATE (50 creates/s on each path),
 * BENCH_STEADY_SECONDS (60) and BENCH_STEADY_IDLE_SECONDS (40, the services idle after the
 * load), and BENCH_SMOKE, BENCH_NODE_ARGS and BENCH_RATE_LIMITS as above.
 * `bench/idle.bench.ts` reads BENCH_IDLE_WAIT_SECONDS (20, after the start) and
 * BENCH_IDLE_WINDOW_SECONDS (60, measured), and the services' settings as above.
 */
import { join } from 'node:path';
import { freePort, repoRoot } from '@esign/testing';

export const SMOKE = process.env.BENCH_SMOKE === '1';
const setting = (name: string, normal: number, smoke: number) =>
  Number(process.env[name] ?? (SMOKE ? smoke : normal));
export const SECONDS = setting('BENCH_SECONDS', 10, 2);
export const CONNECTIONS = setting('BENCH_CONNECTIONS', 16, 16);
export const SEND_RATE = setting('BENCH_SEND_RATE', 100, 20);
export const SEND_SECONDS = setting('BENCH_SEND_SECONDS', 30, 3);
/**
 * The notifier handles nothing before the first send, so without a warm-up the send
 * phase's CPU included compiling its hot paths (docs/benchmarks.md, session 35). Runs
 * before had none; the summary prints the cold figure too, for comparison with them.
 */
export const SEND_WARMUP_SECONDS = setting('BENCH_SEND_WARMUP_SECONDS', 5, 1);
export const RAMP_SECONDS = setting('BENCH_RAMP_SECONDS', 10, 2);
export const IDLE_SECONDS = setting('BENCH_IDLE_SECONDS', 10, 2);
export const REST_SECONDS = setting('BENCH_REST_SECONDS', 30, 2);
/** Creates a second on each path in the side-by-side run (below saturation: latency, not queueing). */
export const PAIRED_RATE = setting('BENCH_PAIRED_RATE', 50, 20);
export const BULK_ROWS = setting('BENCH_BULK_ROWS', 1000, 50);
export const STEADY_RATE = setting('BENCH_STEADY_RATE', 50, 20);
export const STEADY_SECONDS = setting('BENCH_STEADY_SECONDS', 60, 3);
export const STEADY_IDLE_SECONDS = setting('BENCH_STEADY_IDLE_SECONDS', 40, 2);
export const IDLE_WAIT_SECONDS = setting('BENCH_IDLE_WAIT_SECONDS', 20, 2);
export const IDLE_WINDOW_SECONDS = setting('BENCH_IDLE_WINDOW_SECONDS', 60, 3);
export const RAMP_RATES = (process.env.BENCH_RAMP_RATES ?? (SMOKE ? '10,20' : '50,100,150,200,300,400'))
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
export const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
/** `requests,notifier`: write a CPU profile of those services into BENCH_PROFILE_DIR (.data/profiles). */
export const PROFILE = (process.env.BENCH_PROFILE ?? '').split(',').filter((s) => s !== '');
export const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ?? join(repoRoot, '.data', 'profiles');
/**
 * Said in the header of a profiled run: V8's sampler interrupts a profiled service's main
 * thread about once a millisecond, so its CPU and wake-up figures are not those of a run
 * without it (session 59: 909 main-thread wake-ups a second at idle instead of 14, 44 ms of
 * CPU a second instead of 14; auth 0.36 ms per send instead of 0.01).
 */
export const PROFILE_TEXT =
  PROFILE.length === 0
    ? undefined
    : `profiled (BENCH_PROFILE=${PROFILE.join(',')}): V8's sampler wakes those services about 1,000 times a second, so their CPU and wake-up figures are higher than in a run without it`;
/** `1`: every service sampled on-CPU by Linux `perf`, printed per phase (perf.ts); its files in BENCH_PERF_DIR (.data/perf). */
export const PERF = process.env.BENCH_PERF === '1';
export const PERF_DIR = process.env.BENCH_PERF_DIR ?? join(repoRoot, '.data', 'perf');

/**
 * As deployed, the gateway charges every call to its rate limits and the notifier every
 * message to its daily quotas: one script call to Redis each. The test system turns them
 * off; the benches turn them on again (BENCH_RATE_LIMITS=on, the default) with quotas far
 * above anything they send, so each call pays for its check and none is refused. `local`
 * keeps them on but gives the services a Redis that is not there, so each charges its own
 * buckets in memory (ADR 0903's fallback): the check without its round trip. `off` runs
 * as the benches did before session 50.
 */
const RATE_LIMIT_MODES = ['on', 'off', 'local'] as const;
type RateLimitMode = (typeof RATE_LIMIT_MODES)[number];
const rateLimitMode = (value: string): RateLimitMode => {
  const mode = RATE_LIMIT_MODES.find((m) => m === value);
  if (mode === undefined) throw new Error(`BENCH_RATE_LIMITS must be on, off or local, not "${value}"`);
  return mode;
};
const RATE_LIMITS = rateLimitMode(process.env.BENCH_RATE_LIMITS ?? 'on');
const UNREACHED_RATE = '100000000/60s';
export const RATE_LIMITS_TEXT = {
  on: 'rate limits and message quotas on, as deployed, each far above this load (BENCH_RATE_LIMITS=off turns them off)',
  off: 'rate limits and message quotas off (BENCH_RATE_LIMITS=off)',
  local:
    "rate limits and message quotas on, far above this load, each service charging its own buckets with no Redis to ask (BENCH_RATE_LIMITS=local, ADR 0903's fallback)",
}[RATE_LIMITS];

/**
 * The limits' settings of each service, to put over the test system's; `noRedis` is a
 * Redis URL where nothing listens, for `local`.
 */
const rateLimitEnv = (
  noRedis: string,
): Record<'gateway' | 'requests' | 'notifier', Record<string, string>> => {
  if (RATE_LIMITS === 'off') return { gateway: {}, requests: {}, notifier: {} };
  const redis: Record<string, string> = RATE_LIMITS === 'local' ? { REDIS_URL: noRedis } : {};
  return {
    gateway: {
      RATE_LIMIT_TOKEN: UNREACHED_RATE,
      RATE_LIMIT_SITE: UNREACHED_RATE,
      RATE_LIMIT_COSTLY: UNREACHED_RATE,
      RATE_LIMIT_COSTLY_TEST: UNREACHED_RATE,
      RATE_LIMIT_ANONYMOUS: UNREACHED_RATE,
      ...redis,
    },
    // The bulk sender paces its sends by the same costly buckets as the gateway.
    requests: { RATE_LIMIT_COSTLY: UNREACHED_RATE, RATE_LIMIT_COSTLY_TEST: UNREACHED_RATE, ...redis },
    // The highest each setting takes.
    notifier: {
      NOTIFIER_SITE_DAILY_EMAILS: '10000000',
      NOTIFIER_SITE_DAILY_SMS: '10000000',
      NOTIFIER_RECIPIENT_DAILY_EMAILS: '100000',
      NOTIFIER_RECIPIENT_DAILY_SMS: '100000',
      ...redis,
    },
  };
};

/**
 * Each service's environment for a bench's system: `base` for all four, the limits' settings
 * over it, and `gateway`'s own last.
 */
export const benchServiceEnv = async (base: Record<string, string>, gateway: Record<string, string> = {}) => {
  // For `local`, a port just found free, with nothing listening: every connection to it is refused.
  const limits = rateLimitEnv(RATE_LIMITS === 'local' ? `redis://127.0.0.1:${await freePort()}` : '');
  return {
    auth: base,
    requests: { ...base, ...limits.requests },
    notifier: { ...base, ...limits.notifier },
    gateway: { ...base, ...limits.gateway, ...gateway },
  };
};
