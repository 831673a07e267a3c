/**
 * What `perf script` prints of one on-CPU sample, sorted the way the bench reports it:
 * which thread ran, whether the kernel or the garbage collector had the CPU, and on the
 * event loop's thread which library's code did. Apart from the plumbing in perf.ts, so
 * that the sorting can be read on its own.
 */

/** One sample: the thread's name, its process and the call chain, innermost frame first. */
export interface Sample {
  readonly comm: string;
  readonly pid: number;
  /** Seconds on CLOCK_MONOTONIC (`perf record -k mono`), the clock of `monotonicUs`. */
  readonly time: number;
  readonly frames: readonly { readonly symbol: string; readonly object: string }[];
}

/**
 * Reads `perf script -F comm,pid,tid,time,ip,sym,dso` line by line: a header line per
 * sample (`comm pid/tid time:`), then one indented line per frame, then a blank line.
 */
export const sampleReader = (onSample: (sample: Sample) => void) => {
  let current: { comm: string; pid: number; time: number; frames: Sample['frames'][number][] } | undefined;
  const end = () => {
    if (current !== undefined) onSample(current);
    current = undefined;
  };
  return {
    line: (line: string) => {
      if (line.trim() === '') return end();
      if (!/^\s/.test(line)) {
        end();
        const header = /^\s*(.+?)\s+(\d+)\/\d+\s+(\d+\.\d+):/.exec(line);
        if (header !== null)
          current = { comm: header[1]!, pid: Number(header[2]), time: Number(header[3]), frames: [] };
        return;
      }
      const frame = /^\s*[0-9a-f]+\s+(.*) \((.*)\)\s*$/.exec(line);
      if (current !== undefined && frame !== null)
        current.frames.push({ symbol: frame[1]!, object: frame[2]! });
    },
    end,
  };
};

const GC =
  /Heap::|Scavenger|ScavengeJob|MarkCompact|MinorMarkSweep|MinorMS|ConcurrentMarking|IncrementalMarking|Sweeper|MemoryAllocator|ArrayBufferSweeper/;
const COMPILER =
  /compiler::|maglev::|Maglev|TurboFan|Turboshaft|turboshaft::|OptimizingCompile|Compiler::|Parser|BackgroundCompile/;

const count = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/** Where one sample's CPU went, at the grain the report prints. */
export type Kind =
  | 'main: kernel'
  | 'main: garbage collector'
  | 'main: code'
  | 'V8 workers: garbage collector'
  | 'V8 workers: compiler'
  | 'V8 workers: other'
  | 'other threads';

const inKernel = (object: string) => object.startsWith('[kernel');

export const kindOf = (sample: Sample): Kind => {
  const symbols = sample.frames.map((f) => f.symbol);
  if (sample.comm === 'MainThread' || sample.comm === 'node') {
    if (sample.frames.length > 0 && inKernel(sample.frames[0]!.object)) return 'main: kernel';
    if (symbols.some((s) => GC.test(s))) return 'main: garbage collector';
    return 'main: code';
  }
  if (sample.comm.startsWith('V8')) {
    if (symbols.some((s) => GC.test(s))) return 'V8 workers: garbage collector';
    if (symbols.some((s) => COMPILER.test(s))) return 'V8 workers: compiler';
    return 'V8 workers: other';
  }
  return 'other threads';
};

const libraryOfFrame = (symbol: string): string | undefined => {
  if (!symbol.startsWith('JS:')) return undefined;
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(symbol);
  if (module !== null) return module[1];
  const ours = /\/(?:services|libs)\/([^/]+)\//.exec(symbol);
  if (ours !== null) return `ours: ${ours[1]}`;
  return undefined;
};

/**
 * The library a main-thread sample is charged to: the innermost JavaScript frame of a
 * package or of our code, so that Node's own streams, timers and buffers count to the
 * library that called them; `node` when no such frame is on the stack (Node's internals
 * called from the event loop), `native` when there is no JavaScript frame at all.
 */
export const libraryOf = (sample: Sample): string => {
  let sawJs = false;
  for (const { symbol } of sample.frames) {
    const library = libraryOfFrame(symbol);
    if (library !== undefined) return library;
    if (symbol.startsWith('JS:')) sawJs = true;
  }
  return sawJs ? 'node' : 'native';
};

/**
 * What a main-thread sample in the kernel was doing: the system call it was in (`writev`,
 * `epoll_pwait`, `write`…: the function `do_syscall_64` called, without its prefix), or
 * else how the kernel was entered (`asm_sysvec_reschedule_ipi`: another CPU asking this
 * one to run a task it woke; `asm_exc_page_fault`…).
 */
export const kernelEntryOf = (sample: Sample): string => {
  const kernel = sample.frames.filter((f) => inKernel(f.object)).map((f) => f.symbol);
  const dispatch = kernel.findIndex((symbol) => symbol === 'do_syscall_64' || symbol === 'x64_sys_call');
  if (dispatch > 0)
    return kernel[dispatch - 1]!.replace(/^(?:__x64_sys_|__ia32_sys_|__do_sys_|ksys_|__sys_|do_)/, '');
  return kernel.at(-1) ?? 'kernel';
};

/**
 * The clients that speak a protocol on the wire, with their parsers and queues: what a
 * service needs for each hop whatever code it runs around them (Postgres, AMQP, Redis,
 * HTTP to another service, SMTP; nodemailer also composes the e-mail it sends).
 */
const WIRE_CLIENTS = new Set([
  'pg',
  'pg-protocol',
  'pg-pool',
  'pg-types',
  'postgres-array',
  'postgres-bytea',
  'postgres-date',
  'postgres-interval',
  'amqplib',
  'buffer-more-ints',
  'ioredis',
  '@ioredis/commands',
  'redis-errors',
  'redis-parser',
  'denque',
  'cluster-key-slot',
  'standard-as-callback',
  'undici',
  'nodemailer',
]);

/**
 * The coarse layers a service's CPU falls into, to bound what changing our code could
 * save: our code with the frameworks it runs in (koa, slonik, fp-ts, io-ts, pino…; Node's
 * own work that such code calls, a koa response written to the socket say, counts here
 * too, so this is an upper bound); the wire clients; Node's internals and native code with
 * no library on the stack (the HTTP parser, the event loop); the kernel; V8's collector,
 * its compilers and its other workers, whichever thread runs them; other threads
 * (libuv's pool).
 */
export type Layer =
  | 'our code and frameworks'
  | 'wire clients'
  | 'Node and native'
  | 'kernel'
  | 'V8: collector, compilers, workers'
  | 'other threads';

/** A sample's layer from its kind and, on the main thread's code, its library (`libraryOf`). */
export const layerOf = (kind: Kind, library: string | undefined): Layer => {
  if (kind === 'main: kernel') return 'kernel';
  if (kind === 'other threads') return 'other threads';
  if (kind !== 'main: code') return 'V8: collector, compilers, workers';
  if (library === undefined || library === 'node' || library === 'native') return 'Node and native';
  return WIRE_CLIENTS.has(library) ? 'wire clients' : 'our code and frameworks';
};

/** The samples of one service over one phase. */
export class Tally {
  samples = 0;
  readonly kinds = new Map<string, number>();
  readonly layers = new Map<string, number>();
  readonly libraries = new Map<string, number>();
  readonly kernel = new Map<string, number>();

  add(sample: Sample) {
    this.samples += 1;
    const kind = kindOf(sample);
    const library = kind === 'main: code' ? libraryOf(sample) : undefined;
    count(this.kinds, kind);
    count(this.layers, layerOf(kind, library));
    if (library !== undefined) count(this.libraries, library);
    if (kind === 'main: kernel') count(this.kernel, kernelEntryOf(sample));
  }

  /** A count as a share of the service's samples, in per cent. */
  percent(count: number | undefined) {
    return `${((100 * (count ?? 0)) / Math.max(this.samples, 1)).toFixed(1)}%`;
  }

  /** The `top` largest of `counts`, each with its share of the service's samples. */
  largest(counts: ReadonlyMap<string, number>, top: number): string {
    return [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => `${name} ${this.percent(n)}`)
      .join(', ');
  }
}
