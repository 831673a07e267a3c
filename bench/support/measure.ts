/**
 * What the bench reads from the machine: each service's CPU time, memory and wake-ups
 * from /proc, the whole machine's busy time, the script calls Redis ran, percentiles. CPU
 * time per call is the figure a busy, shared machine distorts least: it counts what a
 * service spent, not how long it waited.
 */
import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { Redis } from 'ioredis';
import { commandCpuSeconds, redisUrl, statFields, type EsignSystem } from '@esign/testing';

export { percentile } from '@esign/testing';

export const SERVICES = ['gateway', 'auth', 'requests', 'notifier'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const print = (line = '') => process.stdout.write(`${line}\n`);
export const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
export const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** One reading from /proc per service process, NaN for a process that has gone. */
const perService = (
  system: EsignSystem,
  read: (pid: number | undefined) => number,
): Record<ServiceName, number> =>
  Object.fromEntries(
    SERVICES.map((name) => {
      try {
        return [name, read(system.services[name].process.pid)];
      } catch {
        return [name, NaN];
      }
    }),
  ) as Record<ServiceName, number>;

/** CPU seconds (user + system, all threads) each service process has used so far, from /proc. */
export const cpuSeconds = (system: EsignSystem): Record<ServiceName, number> =>
  perService(system, (pid) => {
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) / 100;
  });

/**
 * CPU seconds each service's threads have used so far, to the nanosecond: the sum of the
 * first field (time on a CPU) of `/proc/<pid>/task/<tid>/schedstat`. `cpuSeconds` counts in
 * ticks of 10 ms, too coarse for a service that hardly runs. A thread that has ended takes
 * its time with it, so this is for a phase in which no thread ends, such as idle.
 */
export const threadCpuSeconds = (system: EsignSystem): Record<ServiceName, number> =>
  perService(system, (pid) => {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
    return ns / 1e9;
  });

/** Runs one statement over a connection of its own to `url`, closed after it: the rows. */
export const queryOnce = async <R extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
};

/**
 * CPU seconds every `postgres` process on the machine has used so far (the server's
 * backends come and go with the pools' connections, and those gone count through the
 * postmaster; the machine's other databases count too).
 */
export const postgresCpuSeconds = (): number => commandCpuSeconds('postgres');

/**
 * CPU seconds so far of what shares the machine with the services: Postgres, RabbitMQ
 * (`beam.smp`), Redis (the rate limits' and quotas' buckets), and this process, the load
 * generator and the SMTP server. With the services' own, what is left of the machine's
 * busy time is someone else's.
 */
export const neighbourCpuSeconds = () => {
  const own = process.cpuUsage();
  return {
    postgres: postgresCpuSeconds(),
    rabbitmq: commandCpuSeconds('beam.smp'),
    redis: commandCpuSeconds('redis-server'),
    bench: (own.user + own.system) / 1e6,
  };
};

/**
 * Script calls Redis has run so far, from every client (`EVALSHA` and `EVAL` in `INFO
 * commandstats`): the round trips the rate limits and message quotas made (ADRs 903, 1320).
 */
export const redisScriptCalls = async (): Promise<number> => {
  const redis = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    const stats = await redis.info('commandstats');
    return [...stats.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  } catch {
    return Number.NaN;
  } finally {
    redis.disconnect();
  }
};

/** `; 0.25 Redis round trips per call`, or nothing when no script ran (the limits are off). */
export const redisText = (perCall: number, per = 'call'): string =>
  perCall > 0 ? `; ${perCall.toFixed(2)} Redis round trips per ${per}` : '';

/**
 * How often each service's main thread, its event loop, has blocked so far: its voluntary
 * context switches, from /proc. Each is a wait with nothing to do and a wake-up after it,
 * which costs CPU of its own; a process that waits for every round trip alone pays one
 * per round trip, a busy one far fewer.
 */
export const wakeUps = (system: EsignSystem): Record<ServiceName, number> =>
  perService(system, (pid) =>
    Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]),
  );

/** `gateway 2.1, requests 5.3, …` per call between two `wakeUps` readings, leaving out those under 0.05. */
export const wakeUpText = (
  before: Record<ServiceName, number>,
  after: Record<ServiceName, number>,
  calls: number,
): string =>
  SERVICES.map((name) => [name, (after[name] - before[name]) / Math.max(calls, 1)] as const)
    .filter(([, perCall]) => perCall >= 0.05)
    .map(([name, perCall]) => `${name} ${perCall.toFixed(1)}`)
    .join(', ');

/** CPU spent per call between two `cpuSeconds` readings: each service's, in ms, and their sum. */
export interface CpuPerCall {
  readonly byService: Readonly<Record<ServiceName, number>>;
  readonly totalMs: number;
}

export const cpuPerCall = (
  before: Record<ServiceName, number>,
  after: Record<ServiceName, number>,
  calls: number,
): CpuPerCall => {
  const byService = Object.fromEntries(
    SERVICES.map((n) => [n, ((after[n] - before[n]) * 1000) / Math.max(calls, 1)]),
  ) as Record<ServiceName, number>;
  return { byService, totalMs: SERVICES.reduce((sum, n) => sum + byService[n], 0) };
};

/** `gateway 0.95 ms, requests 3.20 ms, … (sum 4.30 ms)`, leaving out services that spent < 5 µs. */
export const cpuText = (cpu: CpuPerCall): string =>
  `${SERVICES.filter((n) => cpu.byService[n] >= 0.005)
    .map((n) => `${n} ${ms(cpu.byService[n])}`)
    .join(', ')} (sum ${ms(cpu.totalMs)})`;

/**
 * Each service's resident memory now (VmRSS) and its peak so far (VmHWM), to see which
 * phase grows it: the peak only rises, so the first phase after which it shows a new
 * value is the one that set it.
 */
export const rssNow = (system: EsignSystem): string =>
  SERVICES.map((name) => {
    try {
      const status = readFileSync(`/proc/${system.services[name].process.pid}/status`, 'utf8');
      const mb = (field: string) =>
        (Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024).toFixed(0);
      return `${name} ${mb('VmRSS')} MB (peak ${mb('VmHWM')})`;
    } catch {
      return `${name} ?`;
    }
  }).join(', ');

/** The `rssNow` line printed under a phase's figures. */
export const printRssAfter = (system: EsignSystem, indent = 47) =>
  print(`${''.padEnd(indent)}RSS after: ${rssNow(system)}`);

/** Busy and total jiffies of the whole machine, from /proc/stat. */
export const machineTicks = (): { busy: number; total: number } => {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
};

/**
 * Now on the monotonic clock, in µs: the clock V8 stamps CPU profiles with, so a phase's
 * window picks its samples out of each service's `.cpuprofile` (BENCH_PROFILE).
 */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * What a service's malloc trimmer did over the run, from its `/metrics` at `url` (ADRs
 * 2750, 2760): how often it trimmed, how long the event loop waited for it, and how far
 * RSS fell.
 */
export const mallocTrimText = async (url: string): Promise<string> => {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);
    if (value('process_malloc_trim_enabled') !== 1) return 'malloc trimming off';
    const trims = value('process_malloc_trims_total');
    const seconds = value('process_malloc_trim_seconds_total');
    const released = value('process_malloc_trim_released_bytes_total') / 1024 / 1024;
    return `${trims} malloc trims, ${(seconds * 1000).toFixed(0)} ms in them, RSS ${released.toFixed(0)} MB lower across them`;
  } catch (error) {
    return `malloc trims not read (${error instanceof Error ? error.message : String(error)})`;
  }
};

/**
 * Section (5): each service's peak RSS over the run and its malloc trims; answers the
 * largest peak in MB. The gateway's `/metrics` is on its operations port, at `gatewayOpsUrl`.
 */
export const printPeakRss = async (system: EsignSystem, gatewayOpsUrl: string): Promise<number> => {
  const rss = system.peakRssKb();
  for (const name of SERVICES) {
    const trims = await mallocTrimText(name === 'gateway' ? gatewayOpsUrl : system.services[name].url);
    print(`  ${name.padEnd(10)} ${((rss[name] ?? 0) / 1024).toFixed(1)} MB   ${trims}`);
  }
  return Math.max(...Object.values(rss)) / 1024;
};
