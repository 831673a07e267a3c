/**
 * The bench's first phase: the services idle for a few seconds after start. What they
 * spend doing nothing (pollers, timers) is part of every per-call figure, most of it at
 * low rates.
 */
import { infra, type EsignSystem } from '@esign/testing';
import {
  cpuPerCall,
  cpuText,
  ms,
  postgresCpuSeconds,
  queryOnce,
  sleep,
  threadCpuSeconds,
  wakeUpText,
  wakeUps,
} from './measure.js';

/**
 * Transactions each service's database has committed so far (`pg_stat_database`), read
 * over a connection to the server's own database (`DATABASE_URL`'s), so that the reading is
 * not counted. A
 * backend reports its counts when a transaction ends at least a second after its last
 * report, so over a few seconds a poller's count lags by a transaction at most.
 */
export const databaseCommits = async (system: EsignSystem): Promise<Record<string, number>> => {
  const databases = Object.entries(system.databases);
  const rows = await queryOnce<{ datname: string; commits: string }>(
    infra().databaseUrl,
    'SELECT datname, xact_commit AS commits FROM pg_stat_database WHERE datname = ANY($1::text[])',
    [databases.map(([, database]) => database.name)],
  );
  const byName = new Map(rows.map((row) => [row.datname, Number(row.commits)]));
  return Object.fromEntries(databases.map(([owner, database]) => [owner, byName.get(database.name) ?? NaN]));
};

/**
 * Idles `seconds` and answers the phase's line: each service's CPU per second (every
 * thread), its main thread's wake-ups per second, each database's transactions per second
 * (what the pollers do) and Postgres's CPU per second.
 */
export const idlePhase = async (system: EsignSystem, seconds: number): Promise<string> => {
  const cpuBefore = threadCpuSeconds(system);
  const wakeUpsBefore = wakeUps(system);
  const commitsBefore = await databaseCommits(system);
  const postgresBefore = postgresCpuSeconds();
  await sleep(seconds * 1000);
  const cpu = cpuPerCall(cpuBefore, threadCpuSeconds(system), seconds);
  const wakeUpsPerSecond = wakeUpText(wakeUpsBefore, wakeUps(system), seconds);
  const postgres = ((postgresCpuSeconds() - postgresBefore) * 1000) / seconds;
  const commitsAfter = await databaseCommits(system);
  const commits = Object.keys(commitsAfter)
    .map((owner) => `${owner} ${((commitsAfter[owner]! - commitsBefore[owner]!) / seconds).toFixed(1)}`)
    .join(', ');
  return `(0) idle, ${seconds} s: CPU per second ${cpuText(cpu)}; main-thread wake-ups per second ${wakeUpsPerSecond}; database transactions per second ${commits}; Postgres (all its processes) ${ms(postgres)}`;
};
