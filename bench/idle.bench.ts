/**
 * What the services spend with nothing to do, away from the start-up and from any load:
 * the system started as `npm run bench` starts it, left alone for BENCH_IDLE_WAIT_SECONDS
 * (20), then the bench's idle line (support/idle.ts) over BENCH_IDLE_WINDOW_SECONDS (60):
 * each service's CPU per second over all its threads, its main thread's wake-ups, each
 * database's transactions and Postgres's CPU. Session 56 alternated it between two
 * checkouts to measure ADRs 2900–2920 (docs/benchmarks.md).
 *
 *   npm run bench:idle          (about 1.5 minutes)
 *
 * The services are as `npm run bench` runs them (settings.ts: BENCH_LOG_LEVEL,
 * BENCH_NODE_ARGS, BENCH_RATE_LIMITS); BENCH_SMOKE=1 waits 2 s and measures 3.
 */
import { freePort, startEsignSystem, useLocalServers } from '@esign/testing';
import { idlePhase } from './support/idle.js';
import { SERVICES, print, sleep } from './support/measure.js';
import { IDLE_WAIT_SECONDS, IDLE_WINDOW_SECONDS, LOG_LEVEL, benchServiceEnv } from './support/settings.js';

useLocalServers();

const main = async () => {
  print(`E-signature platform, idle: ${new Date().toISOString()}, Node ${process.version}`);
  const env = await benchServiceEnv({ LOG_LEVEL }, { OPS_PORT: String(await freePort()) });
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const system = await startEsignSystem({
    label: 'idle',
    migrateFirst: true,
    env,
    nodeArgs: Object.fromEntries(SERVICES.map((name) => [name, nodeArgs])),
  });
  try {
    await sleep(IDLE_WAIT_SECONDS * 1000);
    print(await idlePhase(system, IDLE_WINDOW_SECONDS));
  } finally {
    await system.stop();
  }
};

await main();
