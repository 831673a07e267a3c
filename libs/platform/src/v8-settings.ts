import { setFlagsFromString } from 'node:v8';
import * as t from 'io-ts';
import { BoolFromEnv, IntFromEnv, decodeConfig, loadConfigOrExit } from './config.js';

/**
 * V8 settings every service applies at start-up, before it serves (ADR 2600, ADR 2630).
 *
 * - `HEAP_GROWING_PERCENT` (default 50; 0 leaves V8's own factor, up to 4×): how far the
 *   old generation may grow past what the last full GC kept. Under the bench's create
 *   load a service keeps about 35 MB live, yet V8 let the old generation reach 55–90 MB
 *   of mostly garbage before collecting it: most of requests' 185 MB peak RSS. A full GC
 *   of a heap this small is a few ms of mostly concurrent marking (ADR 2600).
 * - `WASM_TIER_UP` (default false): whether V8 may recompile hot WebAssembly with its
 *   optimizing compiler. The only WebAssembly the services run is undici's HTTP parser
 *   (llhttp: the gateway's upstream calls, the notifier's webhooks, `fetch`). Optimizing
 *   its one very large function takes 20–34 MB for a moment, the first time it gets hot:
 *   the gateway's peak RSS, not its load. The baseline code parses a response about 2 µs
 *   slower (ADR 2630). Set at run time, `--liftoff-only` alone does nothing on V8 13
 *   (Node 24); with `--no-wasm-tier-up` and `--no-wasm-dynamic-tiering`, which it implies
 *   on the command line, set by name too, it holds there as on V8 11 (ADR 2770).
 * - `MAGLEV_INLINING` (default false): whether Maglev, the middle JIT tier V8 13 (Node 24)
 *   adds, may inline the functions a warm function calls. Inlining makes each compile's
 *   working memory (V8's zones, in malloc) several times larger; freed, it stays in malloc
 *   until the next trim, and under load that is much of requests' and the notifier's peak
 *   RSS. TurboFan, the top tier, still inlines. V8 11 (Node 20) runs no Maglev, so there
 *   the flag changes nothing (ADR 2840).
 *
 * V8 reads these flags when it next needs them (`maglev-inlining` at each compile), so
 * setting them with `v8.setFlagsFromString` at start-up works (Node refuses them in
 * `NODE_OPTIONS`), on V8 11 (Node 20) and V8 13 (Node 24) alike:
 * `test/integration/heap-growth.test.ts`, `wasm-tier-up.test.ts` and
 * `maglev-inlining.test.ts` check on whichever Node runs them. The young generation's size,
 * read once when the heap is made, is set on the command line instead
 * (`--max-semi-space-size` in NODE_OPTIONS wherever a service is started).
 */
const V8Env = t.type({
  HEAP_GROWING_PERCENT: IntFromEnv(0, 1000),
  WASM_TIER_UP: BoolFromEnv,
  MAGLEV_INLINING: BoolFromEnv,
});
const v8Defaults = { HEAP_GROWING_PERCENT: '50', WASM_TIER_UP: 'false', MAGLEV_INLINING: 'false' };
const v8EnvOf = (env: NodeJS.ProcessEnv) => ({
  HEAP_GROWING_PERCENT: env.HEAP_GROWING_PERCENT,
  WASM_TIER_UP: env.WASM_TIER_UP,
  MAGLEV_INLINING: env.MAGLEV_INLINING,
});

/** WebAssembly at its baseline tier, on V8 11 and V8 13 alike (ADRs 2630, 2770). */
const WASM_BASELINE_ONLY = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'] as const;

const flagsOf = (settings: t.TypeOf<typeof V8Env>): string[] => [
  ...(settings.HEAP_GROWING_PERCENT > 0 ? [`--heap-growing-percent=${settings.HEAP_GROWING_PERCENT}`] : []),
  ...(settings.WASM_TIER_UP ? [] : WASM_BASELINE_ONLY),
  ...(settings.MAGLEV_INLINING ? [] : ['--no-maglev-inlining']),
];

const apply = (settings: t.TypeOf<typeof V8Env>) => {
  for (const flag of flagsOf(settings)) setFlagsFromString(flag);
};

/** The flags these variables ask for, in the order they are set; a wrong value throws a `ConfigError`. */
export const v8FlagsFor = (env: NodeJS.ProcessEnv = process.env): string[] =>
  flagsOf(decodeConfig(V8Env, v8Defaults, v8EnvOf(env)));

/** Sets the flags; a wrong value throws a `ConfigError` naming the variable. */
export const applyV8Settings = (env: NodeJS.ProcessEnv = process.env): void =>
  apply(decodeConfig(V8Env, v8Defaults, v8EnvOf(env)));

/** For `runMain`: sets the flags, or stops start-up with exit code 78 as a wrong variable does. */
export const applyV8SettingsOrExit = (env: NodeJS.ProcessEnv = process.env): void =>
  apply(loadConfigOrExit(V8Env, v8Defaults, v8EnvOf(env)));
