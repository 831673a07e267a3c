/**
 * ADR 2640's measurement: the create use case called in one process against Postgres,
 * 16 at a time, alternating rounds with `Autocommit` (the service's) and with a
 * transaction in its place (the code before ADR 2640), printing the service's CPU per
 * create and creates per second of each round and their means. CPU time of this process
 * only: Postgres's own share is not in it.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres AMQP_URL=amqp://guest:guest@127.0.0.1:5672 \
 *     node --conditions=source --import=tsx services/requests/test/bench/create-transaction-ab.ts
 */
import { startHarness, publishedTemplate } from '../support/harness.js';
import { createRound, newSignersBodies } from './create-rounds.js';
import { postgresTransact } from '../../src/adapters/postgres/postgres-store.js';

const h = await startHarness('ab-create');
const template = await publishedTemplate(h.http);
const txDeps = { ...h.deps, autocommit: postgresTransact(h.pool, { idempotencyRetentionHours: 24 }) };
const body = newSignersBodies(template);
const round = (deps: typeof h.deps, count: number) => createRound(deps, body, count);
await round(h.deps, 3000);
await round(txDeps, 3000);
const results: Record<string, number[][]> = { autocommit: [], transaction: [] };
for (let i = 0; i < 8; i++) {
  for (const [name, deps] of i % 2 === 0
    ? ([
        ['autocommit', h.deps],
        ['transaction', txDeps],
      ] as const)
    : ([
        ['transaction', txDeps],
        ['autocommit', h.deps],
      ] as const)) {
    const r = await round(deps, 2000);
    results[name]!.push([r.cpuUs, r.perS]);
    console.log(`${name}: ${r.cpuUs.toFixed(0)} µs CPU per create, ${r.perS.toFixed(0)} creates/s`);
  }
}
for (const [name, rs] of Object.entries(results))
  console.log(
    `${name} mean: ${(rs.reduce((a, r) => a + r[0]!, 0) / rs.length).toFixed(0)} µs, ${(rs.reduce((a, r) => a + r[1]!, 0) / rs.length).toFixed(0)}/s`,
  );
await h.close();
