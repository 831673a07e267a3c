import { readdirSync, readFileSync } from 'node:fs';

/** For a bench run by hand: the local Postgres and RabbitMQ unless DATABASE_URL / AMQP_URL name others. */
export const useLocalServers = (): void => {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  process.env.AMQP_URL ??= 'amqp://guest:guest@127.0.0.1:5672';
};

/** The `p`th percentile (0 to 100) of samples sorted ascending; NaN when there are none. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** A process's `comm` and the fields of its `/proc/<pid>/stat` after it (proc(5), from field 3 on). */
const readStat = (pid: number | string | undefined): { comm: string; fields: string[] } => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const end = stat.lastIndexOf(')');
  return { comm: stat.slice(stat.indexOf('(') + 1, end), fields: stat.slice(end + 2).split(' ') };
};

/** The fields of `/proc/<pid>/stat` after the command's name: state is [0], utime [11], starttime [19]. */
export const statFields = (pid: number | string | undefined): string[] => readStat(pid).fields;

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
      const { comm, fields } = readStat(pid);
      if (comm !== command) continue;
      // utime, stime, then cutime and cstime (proc(5), fields 14-17), in USER_HZ ticks.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      found = true;
    } catch {
      // gone in between
    }
  }
  return found ? ticks / 100 : Number.NaN;
};
