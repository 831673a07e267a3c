import { setFlagsFromString } from 'node:v8';
import * as t from 'io-ts';
import { IntFromEnv, decodeConfig, loadConfigOrExit } from './config.js';

/**
 * How far V8 lets the old generation grow past what the last full GC kept, in percent
 * (`HEAP_GROWING_PERCENT`, default 50; 0 leaves V8's own factor, up to 4×). Under the
 * bench's create load a service keeps about 35 MB live, yet V8 let the old generation
 * reach 55–90 MB of mostly garbage before collecting it: most of requests' 185 MB peak
 * RSS. A full GC of a heap this small is a few ms of mostly concurrent marking (ADR 2600).
 * V8 reads this flag each time it sets the limit, so setting it at start-up works; the
 * young generation's size, read once when the heap is made, is set on the command line
 * instead (`--max-semi-space-size` in NODE_OPTIONS wherever a service is started).
 */
const HeapEnv = t.type({ HEAP_GROWING_PERCENT: IntFromEnv(0, 1000) });
const heapDefaults = { HEAP_GROWING_PERCENT: '50' };
const heapEnvOf = (env: NodeJS.ProcessEnv) => ({ HEAP_GROWING_PERCENT: env.HEAP_GROWING_PERCENT });

const apply = (percent: number) => {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
};

/** Sets the flag; a wrong value throws a `ConfigError` naming the variable. */
export const limitHeapGrowth = (env: NodeJS.ProcessEnv = process.env): void =>
  apply(decodeConfig(HeapEnv, heapDefaults, heapEnvOf(env)).HEAP_GROWING_PERCENT);

/** For `runMain`: sets the flag, or stops start-up with exit code 78 as a wrong variable does. */
export const limitHeapGrowthOrExit = (env: NodeJS.ProcessEnv = process.env): void =>
  apply(loadConfigOrExit(HeapEnv, heapDefaults, heapEnvOf(env)).HEAP_GROWING_PERCENT);
