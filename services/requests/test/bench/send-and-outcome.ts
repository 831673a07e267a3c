/**
 * The measurement of ADRs 2650 and 2800: the send and the delivery-report use cases called
 * in one process against Postgres, 16 at a time, printing per call this process's CPU, the
 * database's (every `postgres` process on the machine, from /proc) and the rate. It
 * uses only the use cases' public signatures, so the same file runs against the code
 * before a change (in a worktree of the earlier commit) and after it.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres AMQP_URL=amqp://guest:guest@127.0.0.1:5672 \
 *     node --conditions=source --import=tsx services/requests/test/bench/send-and-outcome.ts
 */
import { randomUUID } from 'node:crypto';
import { commandCpuSeconds } from '@esign/testing';
import type { RequestView } from '@esign/contracts';
import { useCases } from '../../src/application/use-cases.js';
import { deliveryReport } from '../support/builders.js';
import {
  oneSignerRequestBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
} from '../support/harness.js';

const ROUNDS = Number(process.env.AB_ROUNDS ?? 4);
const PER_ROUND = Number(process.env.AB_CALLS ?? 1500);

/** CPU of every postgres process, in ms, with the backends that ended. */
const postgresCpuMs = (): number => commandCpuSeconds('postgres') * 1000;

const h = await startHarness('ab-send');
const cases = useCases(h.deps);
const template = await publishedTemplate(h.http);
const headers = await principal();
const caller = { sub: 'u1', sites: [{ ...SITE_A, role: 'admin' }] } as never;

const drafts = async (count: number): Promise<RequestView[]> => {
  const views: RequestView[] = [];
  while (views.length < count) {
    const signerId = `s${views.length}-${randomUUID()}@example.com`;
    const res = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send(oneSignerRequestBody(template, signerId));
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    views.push(res.body as RequestView);
  }
  return views;
};

const measure = async <A>(items: readonly A[], call: (a: A) => Promise<unknown>) => {
  const c0 = process.cpuUsage();
  const p0 = postgresCpuMs();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < items.length) await call(items[next++]!);
    }),
  );
  const c = process.cpuUsage(c0);
  return {
    cpuUs: (c.user + c.system) / items.length,
    pgUs: ((postgresCpuMs() - p0) * 1000) / items.length,
    perS: items.length / ((performance.now() - t0) / 1000),
  };
};

const results: Record<'send' | 'outcome', { cpuUs: number; pgUs: number; perS: number }[]> = {
  send: [],
  outcome: [],
};
for (let round = 0; round <= ROUNDS; round++) {
  const views = await drafts(PER_ROUND);
  const sent = await measure(views, async (view) => {
    const r = await cases.sendRequest({ caller, requestId: view.id })();
    if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
  });
  const outcome = await measure(views, async (view) => {
    const r = await cases.recordNotificationOutcome(deliveryReport(view))();
    if (r._tag === 'Left' || r.right !== 'applied') throw new Error(JSON.stringify(r));
  });
  // The first round warms up.
  if (round === 0) continue;
  for (const [name, r] of [
    ['send', sent],
    ['outcome', outcome],
  ] as const) {
    results[name].push(r);
    console.log(
      `${name}: ${r.cpuUs.toFixed(0)} µs CPU here, ${r.pgUs.toFixed(0)} µs in Postgres per call, ${r.perS.toFixed(0)}/s`,
    );
  }
}
const mean = (rs: { cpuUs: number; pgUs: number; perS: number }[], k: 'cpuUs' | 'pgUs' | 'perS') =>
  (rs.reduce((a, r) => a + r[k], 0) / rs.length).toFixed(0);
for (const [name, rs] of Object.entries(results))
  console.log(
    `${name} mean of ${rs.length}: ${mean(rs, 'cpuUs')} µs here, ${mean(rs, 'pgUs')} µs in Postgres, ${mean(rs, 'perS')}/s`,
  );
await h.close();
