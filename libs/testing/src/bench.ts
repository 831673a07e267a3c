import { readdirSync, readFileSync } from 'node:fs';

/** For a bench run by hand: the local Postgres and RabbitMQ unless DATABASE_URL / AMQP_URL name others. */
export const useLocalServers = (): void => {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  process.env.AMQP_URL ??= 'amqp://guest:guest@127.0.0.1:5672';
};

/** The `p`th percentile (0 to 100) of samples sorted ascending. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * CPU seconds every process named `command` (its `comm`) on the machine has used so far,
 * with what their children that ended had used; NaN when none runs here.
 *
 * The children count because a process that ends takes its own figures with it: a
 * Postgres backend whose pool connection closes mid-run (an idle pool shrinking) would
 * make Postgres' time go down, even below zero. Its parent, the postmaster, reaps it
 * within moments and adds its time to its own `cutime` and `cstime`, so the sum keeps it.
 */
export const commandCpuSeconds = (command: string): number => {
  let ticks = 0;
  let found = false;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== command) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, then cutime and cstime (proc(5), fields 14-17), in USER_HZ ticks.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      found = true;
    } catch {
      // gone in between
    }
  }
  return found ? ticks / 100 : Number.NaN;
};
