/**
 * ADR 2830's measurement: the create use case called in one process against Postgres,
 * 16 at a time, alternating rounds with the create's two statements prepared by name (as
 * shipped) and sent unnamed (an interceptor takes the mark off, the code before ADR 2830),
 * printing per create the service's CPU, Postgres' CPU (every `postgres` process, with
 * the backends that ended) and creates per second. The databases are analysed after the
 * first rounds, as a production server's autovacuum would have by then; `AB_ANALYSE=0`
 * leaves them unanalysed, to see what session 31 saw.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres AMQP_URL=amqp://guest:guest@127.0.0.1:5672 \
 *     node --conditions=source --import=tsx services/requests/test/bench/create-prepared-ab.ts
 */
import { commandCpuSeconds } from '@esign/testing';
import { PREPARED_MARK, sql } from '@esign/platform/database';
import { startHarness, publishedTemplate } from '../support/harness.js';
import { createRound, newSignersBodies } from './create-rounds.js';

let unnamed = false;
const h = await startHarness('ab-create-prepared', {
  interceptors: [
    {
      name: 'unnamed-rounds',
      transformQuery: (_context, query) =>
        unnamed && query.sql.startsWith(PREPARED_MARK)
          ? { ...query, sql: query.sql.slice(PREPARED_MARK.length) }
          : query,
    },
  ],
});

/** CPU µs so far of every `postgres` process, with the backends that ended. */
const postgresCpuUs = () => commandCpuSeconds('postgres') * 1e6;
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

const template = await publishedTemplate(h.http);
const body = newSignersBodies(template);
const round = async (named: boolean, count: number) => {
  unnamed = !named;
  await settle();
  const p0 = postgresCpuUs();
  const { cpuUs, perS } = await createRound(h.deps, body, count);
  // Postgres' share includes the pause after: the backends' pollers, a few ms a second.
  await settle();
  return { cpuUs, postgresUs: (postgresCpuUs() - p0) / count, perS };
};
await round(true, 1000);
await round(false, 1000);
if (process.env.AB_ANALYSE !== '0') await h.pool.query(sql.unsafe`ANALYZE`);
const results: Record<string, number[][]> = { prepared: [], unnamed: [] };
for (let i = 0; i < 6; i++) {
  for (const named of i % 2 === 0 ? [true, false] : [false, true]) {
    const r = await round(named, 2000);
    const name = named ? 'prepared' : 'unnamed';
    results[name]!.push([r.cpuUs, r.postgresUs, r.perS]);
    console.log(
      `${name}: service ${r.cpuUs.toFixed(0)} µs, Postgres ${r.postgresUs.toFixed(0)} µs CPU per create, ${r.perS.toFixed(0)} creates/s`,
    );
  }
}
const mean = (rs: number[][], i: number) => rs.reduce((a, r) => a + r[i]!, 0) / rs.length;
for (const [name, rs] of Object.entries(results))
  console.log(
    `${name} mean: service ${mean(rs, 0).toFixed(0)} µs, Postgres ${mean(rs, 1).toFixed(0)} µs, ${mean(rs, 2).toFixed(0)}/s`,
  );
await h.close();
