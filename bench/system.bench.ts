/**
 * `npm run bench`: the whole product measured in one run on this machine, the way
 * `npm start` runs it (four built processes, real Postgres and RabbitMQ, an SMTP server
 * in this process), and the ceilings it is judged against, measured in the same run:
 *
 *   1. create a Request (1 contract, 2 signers, 3 fields) through the gateway: req/s, p50, p99;
 *      every create names two new signers, as a client's usually do, and one more run
 *      repeats the same two signers in every create (the hot-row case, labelled)
 *   2. the same straight to the requests service with a minted principal, and the ratio;
 *      the same pair for a read (GET /v1.1/requests/:id), where the gateway's share is largest
 *   3. send → e-mail accepted by the SMTP server, at a steady rate: p50, p99
 *   4. ceilings: a bare koa JSON route; a raw SQL transaction inserting a create's rows,
 *      with new signers each time at the same concurrency (and the hot-signer case)
 *   5. each service's peak RSS (VmHWM)
 *
 * It ends with the ratios, one per line. Not part of `npm test`: a measurement, not a
 * check. The load generator (autocannon) runs in this process, on the same 2 cores as
 * the services and Postgres.
 *
 * Environment: BENCH_SECONDS (10 per run), BENCH_CONNECTIONS (16), BENCH_SEND_RATE (100
 * sends/s), BENCH_SEND_SECONDS (10), BENCH_LOG_LEVEL of the services (info, as deployed).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createEsignClient, type EsignClient, type Schemas } from '@esign/client';
import { PRINCIPAL_AUDIENCES, PRINCIPAL_HEADER } from '@esign/contracts';
import { bulkSendRun } from './bulk-send.bench-part.js';
import { repoRoot, startEsignSystem, type EsignSystem, type Tenant } from '@esign/testing';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
process.env.AMQP_URL ??= 'amqp://guest:guest@127.0.0.1:5672';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SEND_RATE = Number(process.env.BENCH_SEND_RATE ?? 100);
const SEND_SECONDS = Number(process.env.BENCH_SEND_SECONDS ?? 10);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
/** BENCH_NODE_ARGS: node options for every service (e.g. V8 heap flags), space-separated. */
/** `requests,notifier`: write a CPU profile of those services into BENCH_PROFILE_DIR (.data/profiles). */
const PROFILE = (process.env.BENCH_PROFILE ?? '').split(',').filter((s) => s !== '');
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ?? join(repoRoot, '.data', 'profiles');

const print = (line = '') => process.stdout.write(`${line}\n`);
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

interface Run {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** CPU time per successful call, per service that spent any: the steadiest figure here. */
  readonly cpu?: string;
}

const SERVICES = ['gateway', 'auth', 'requests', 'notifier'] as const;

/** CPU seconds (user + system) each service process has used so far, from /proc. */
const cpuSeconds = (system: EsignSystem): Record<string, number> =>
  Object.fromEntries(
    SERVICES.map((name) => {
      try {
        const stat = readFileSync(`/proc/${system.services[name].process.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return [name, (Number(fields[11]) + Number(fields[12])) / 100];
      } catch {
        return [name, NaN];
      }
    }),
  );

/** Each service's resident memory now (VmRSS), to see which phase grows it. */
const rssNow = (system: EsignSystem): string =>
  SERVICES.map((name) => {
    try {
      const status = readFileSync(`/proc/${system.services[name].process.pid}/status`, 'utf8');
      return `${name} ${(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024).toFixed(0)} MB`;
    } catch {
      return `${name} ?`;
    }
  }).join(', ');

/** Busy and total jiffies of the whole machine, from /proc/stat. */
const machineTicks = (): { busy: number; total: number } => {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
};

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** One autocannon run; a warm-up of 2 s first so pools, JIT and caches are hot. */
const load = async (system: EsignSystem, options: autocannon.Options, expected: number): Promise<Run> => {
  await autocannon({ ...options, duration: 2 });
  const before = cpuSeconds(system);
  const result = await autocannon({ ...options, duration: SECONDS });
  const after = cpuSeconds(system);
  const stats = (result.statusCodeStats ?? {}) as Record<string, { count: number } | undefined>;
  const ok = stats[String(expected)]?.count ?? 0;
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (result.requests.total - ok),
    cpu: SERVICES.map((n) => [n, ((after[n]! - before[n]!) * 1e6) / Math.max(ok, 1)] as const)
      .filter(([, us]) => us >= 5)
      .map(([n, us]) => `${n} ${us.toFixed(0)} µs`)
      .join(', '),
  };
};

const line = (name: string, run: Run) =>
  print(
    `  ${name.padEnd(44)} ${run.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(run.p50).padStart(9)}   p99 ${ms(run.p99).padStart(9)}${run.errors > 0 ? `   (${run.errors} not ok)` : ''}${run.cpu ? `\n  ${''.padEnd(44)} CPU per call: ${run.cpu}` : ''}`,
  );

/** NANP exchanges: 200 to 999, none N11 (other numbers are refused, ADR 1320). */
const EXCHANGES = Array.from({ length: 800 }, (_, i) => 200 + i).filter((e) => e % 100 !== 11);
/** A distinct valid US number in area code 202 for each n (7.9 million of them). */
const usMobile = (n: number): string => {
  const m = n % (EXCHANGES.length * 10_000);
  return `202${EXCHANGES[m % EXCHANGES.length]}${String(Math.floor(m / EXCHANGES.length)).padStart(4, '0')}`;
};

/**
 * A create's two signers: an e-mail signer and a mobile-number signer. A realistic client
 * names new people in most Requests, so every create gets signers of its own (`unique`);
 * the hot case, where every transaction upserts the same two signer rows and waits on
 * their row locks, is measured on its own line.
 */
let signerSerial = 0;
const runTag = randomUUID().slice(0, 8);
const signerPair = (unique: boolean) => {
  if (!unique) return { a: 'client-42', email: 'alice@example.com', mobile: '2025550143' };
  const n = signerSerial++;
  // 10 digits, area code 202, distinct for the first 7.9 million creates of a run.
  return {
    a: `client-${runTag}-${n}`,
    email: `c${n}-${runTag}@example.com`,
    mobile: usMobile(n),
  };
};

const createBody = (template: number, unique: boolean) => {
  const { a, email, mobile } = signerPair(unique);
  return JSON.stringify({
    contracts: [template],
    signers: [
      { signer_id: a, signer: { email }, send_to: { email: true } },
      { signer_id: mobile, send_to: { mobile_number: true } },
    ],
    fields: [
      { name: 'full_name', assigned_to: a },
      { name: 'signature', assigned_to: a },
      { name: 'witness_signature', assigned_to: mobile },
    ],
    render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
  });
};

/** autocannon options for creates: a fresh body (new signers) per call, or one fixed body. */
const createCalls = (url: string, headers: Record<string, string>, template: number, unique: boolean) =>
  unique
    ? {
        url,
        requests: [
          {
            method: 'POST' as const,
            headers,
            setupRequest: (request: autocannon.Request) => ({ ...request, body: createBody(template, true) }),
          },
        ],
      }
    : { url, method: 'POST' as const, headers, body: createBody(template, false) };

const TEMPLATE = {
  type: 'html' as const,
  name: 'Services agreement',
  html: '<h1>Services agreement</h1><p>Between <b>{{client_name}}</b> and the provider, from {{start_date}}.</p>',
  fields: [
    { name: 'full_name', type: 'text' as const },
    { name: 'signature', type: 'signature' as const },
    { name: 'witness_signature', type: 'signature' as const },
  ],
};

/** A typed client call's body, or an error with the answer when its status is not `expected`. */
const answer = <T>(
  result: { readonly data?: T; readonly error?: unknown; readonly response: Response },
  expected: number,
): T => {
  if (result.response.status !== expected || result.data === undefined)
    throw new Error(
      `expected ${expected}, got ${result.response.status}: ${JSON.stringify(result.error ?? null)}`,
    );
  return result.data;
};

/** The bare koa ceiling, in a process of its own like a service. */
const startBareKoa = async () => {
  const child = spawn(process.execPath, [join(repoRoot, 'bench', 'support', 'bare-koa.mjs')], {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`bare koa exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
};

/**
 * The rows one create writes (the signers upserted; the Request with its contract, two
 * signers and three fields in one statement of data-modifying CTEs; the outbox row), as a
 * transaction of plain parameterised SQL over `CONNECTIONS` pooled connections: what the
 * database alone can take, without HTTP, validation, templates or JSON views.
 */
const rawSqlCeiling = async (
  databaseUrl: string,
  siteId: number,
  template: number,
  unique: boolean,
): Promise<Run> => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS });
  const transaction = async () => {
    const client = await pool.connect();
    const id = randomUUID();
    const { a, email, mobile } = signerPair(unique);
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO signers (site_id, signer_id, email, mobile_number, created_at, updated_at)
         VALUES ($1, $2, $3, NULL, now(), now()), ($1, $4, NULL, '1' || $4, now(), now())
         ON CONFLICT (site_id, signer_id) DO UPDATE
           SET email = COALESCE(EXCLUDED.email, signers.email),
               mobile_number = COALESCE(EXCLUDED.mobile_number, signers.mobile_number), updated_at = now()`,
        [siteId, a, email, mobile],
      );
      await client.query(
        `WITH r AS (
           INSERT INTO requests (id, site_id, site_name, state, render_data, created_at, updated_at)
           VALUES ($1, $2, 'Bench site', 'draft', $3, now(), now()) RETURNING id
         ), c AS (
           INSERT INTO request_contracts (request_id, position, template_id, name)
           SELECT id, 0, $4, 'Services agreement' FROM r
         ), s AS (
           INSERT INTO request_signers (request_id, position, site_id, signer_id, signer_ref, send_email, send_sms, state)
           SELECT id, v.position, $2, v.signer_id, v.ref, v.email, v.sms, 'pending' FROM r,
             (VALUES (0, $7, $5, true, false), (1, $8, $6, false, true))
               AS v(position, signer_id, ref, email, sms)
           RETURNING request_id
         )
         INSERT INTO request_fields (request_id, position, name, default_value, assigned_to)
         SELECT DISTINCT s.request_id, f.position, f.name, NULL::jsonb, f.assigned_to FROM s,
           (VALUES (0, 'full_name', $7), (1, 'signature', $7),
                   (2, 'witness_signature', $8)) AS f(position, name, assigned_to)`,
        [
          id,
          siteId,
          JSON.stringify({ client_name: 'Jane Q. Client', start_date: '2030-01-01' }),
          template,
          randomUUID().slice(0, 12),
          randomUUID().slice(0, 12),
          a,
          mobile,
        ],
      );
      await client.query(`INSERT INTO outbox (id, type, envelope) VALUES ($1, 'request.created', $2)`, [
        randomUUID(),
        JSON.stringify({ id, type: 'request.created', site_id: siteId, aggregate_id: id, data: {} }),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
  const measure = async (seconds: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          await transaction();
          latencies.push(performance.now() - started);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    return {
      rps: latencies.length / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors: 0,
    };
  };
  try {
    await measure(2);
    return await measure(SECONDS);
  } finally {
    await pool.end();
  }
};

/**
 * Where the time between a send and its e-mail goes, from the databases' own clocks:
 * outbox row written → published (the relay), published → claimed by the notifier (the
 * broker and the consumer), claimed → settled (SMTP and the outcome's transaction).
 */
const sendStages = async (system: EsignSystem) => {
  const query = async <R extends pg.QueryResultRow>(url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  };
  const sent = await query<{ id: string; created: number; published: number }>(
    system.databases.requests.url,
    `SELECT id, extract(epoch FROM created_at) * 1000 AS created, extract(epoch FROM published_at) * 1000 AS published
     FROM outbox WHERE type = 'request.sent' AND published_at IS NOT NULL`,
  );
  const deliveries = await query<{ event_id: string; claimed: number; settled: number }>(
    system.databases.notifier.url,
    `SELECT event_id, extract(epoch FROM created_at) * 1000 AS claimed, extract(epoch FROM settled_at) * 1000 AS settled
     FROM deliveries WHERE channel = 'email' AND settled_at IS NOT NULL`,
  );
  const byEvent = new Map(deliveries.map((d) => [d.event_id, d]));
  const relay: number[] = [];
  const pickup: number[] = [];
  const delivery: number[] = [];
  for (const row of sent) {
    const d = byEvent.get(row.id);
    if (d === undefined) continue;
    relay.push(Number(row.published) - Number(row.created));
    pickup.push(Number(d.claimed) - Number(row.published));
    delivery.push(Number(d.settled) - Number(d.claimed));
  }
  const summary = (values: number[]) => {
    values.sort((a, b) => a - b);
    return `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}`;
  };
  return `outbox → published ${summary(relay)}; published → claimed ${summary(pickup)}; claimed → settled ${summary(delivery)}`;
};

/** Sends at a steady rate through the gateway; each send's answer → its e-mail accepted. */
const sendToEmail = async (esign: EsignClient, system: EsignSystem, tenant: Tenant, template: number) => {
  const count = SEND_RATE * SEND_SECONDS;
  const emails = Array.from({ length: count }, (_, i) => `send-${i}-${randomUUID().slice(0, 8)}@example.com`);
  const ids: string[] = new Array<string>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        const created = answer(
          await esign.POST('/v1.1/sites/{site_id}/requests', {
            params: { path: { site_id: tenant.site.id } },
            body: {
              contracts: [template],
              signers: [{ signer_id: `s-${i}`, signer: { email: emails[i]! }, send_to: { email: true } }],
              fields: [{ name: 'full_name', assigned_to: emails[i]! }],
            },
          }),
          201,
        );
        ids[i] = created.id;
      }
    }),
  );
  await sleep(1000);
  const answeredAt = new Map<string, number>();
  const sendLatencies: number[] = [];
  const before = system.smtp.received.length;
  const cpuBefore = cpuSeconds(system);
  const machineBefore = machineTicks();
  const started = performance.now();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / SEND_RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    calls.push(
      (async () => {
        const t0 = performance.now();
        const { response } = await esign.POST('/v1.1/requests/{request_id}/send', {
          params: { path: { request_id: ids[i]! } },
        });
        const t1 = performance.now();
        if (response.status !== 200) throw new Error(`send answered ${response.status}`);
        sendLatencies.push(t1 - t0);
        answeredAt.set(emails[i]!, t1);
      })(),
    );
  }
  await Promise.all(calls);
  const achieved = count / ((performance.now() - started) / 1000);
  await system.smtp.waitForCount(before + count, 60_000);
  const phase = (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds(system);
  const machineAfter = machineTicks();
  const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
  const cpu = `CPU (of one core) from the first send to the last e-mail: ${SERVICES.map(
    (n) => `${n} ${((100 * (cpuAfter[n]! - cpuBefore[n]!)) / phase).toFixed(0)}%`,
  ).join(', ')}; the whole machine ${(machineBusy * 100).toFixed(0)}% busy`;
  const latencies = system.smtp.received
    .slice(before)
    .map((mail) => mail.acceptedAt - (answeredAt.get(mail.to[0]!) ?? NaN))
    .filter((n) => !Number.isNaN(n))
    .sort((a, b) => a - b);
  sendLatencies.sort((a, b) => a - b);
  const stages = await sendStages(system);
  return {
    cpu,
    stages,
    achieved,
    count,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    sendP50: percentile(sendLatencies, 50),
    sendP99: percentile(sendLatencies, 99),
  };
};

const main = async () => {
  print(`E-signature platform benchmark: ${new Date().toISOString()}`);
  print(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; the load generator shares these cores with the services and Postgres`,
  );
  print(
    `runs: ${SECONDS} s each after a 2 s warm-up, ${CONNECTIONS} connections; services at LOG_LEVEL=${LOG_LEVEL}`,
  );
  print();

  const logLevel = { LOG_LEVEL: LOG_LEVEL };
  const system = await startEsignSystem({
    label: 'bench',
    env: { auth: logLevel, requests: logLevel, notifier: logLevel, gateway: logLevel },
    nodeArgs: Object.fromEntries(
      SERVICES.map((name) => [
        name,
        [
          ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== ''),
          ...(PROFILE.includes(name)
            ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}.cpuprofile`]
            : []),
        ],
      ]),
    ),
  });
  const bareKoa = await startBareKoa();
  try {
    const tenant = await system.createTenant('Bench');
    const auth = { authorization: `Bearer ${tenant.token.accessToken}`, 'content-type': 'application/json' };
    // Set-up and the send phase use the typed client (@esign/client); autocannon drives the
    // measured create and read runs with raw requests, as a load generator must.
    const esign = createEsignClient({ baseUrl: system.gatewayUrl, accessToken: tenant.token.accessToken });
    const template = answer(
      await esign.POST('/v1.1/sites/{site_id}/contracts', {
        params: { path: { site_id: tenant.site.id } },
        body: TEMPLATE,
      }),
      201,
    ).id;
    answer(
      await esign.POST('/v1.1/contracts/{contract_id}/publish', {
        params: { path: { contract_id: template } },
      }),
      200,
    );
    const principal = await system.principalKeys.sign(PRINCIPAL_AUDIENCES.requests, {
      sub: tenant.user.id,
      token_id: tenant.token.id,
      sites: [{ id: tenant.site.id, name: tenant.site.name }],
    });
    const direct = { [PRINCIPAL_HEADER]: principal, 'content-type': 'application/json' };
    const createPath = `/v1.1/sites/${tenant.site.id}/requests`;
    const one = answer(
      await esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: tenant.site.id } },
        body: JSON.parse(createBody(template, true)) as Schemas['CreateRequestBody'],
      }),
      201,
    );
    const readPath = `/v1.1/requests/${one.id}`;
    const requestsUrl = system.services.requests.url;
    const common = { connections: CONNECTIONS, pipelining: 1 };

    print('(1, 2) create a Request (1 contract, 2 signers, 3 fields; new signers in each), and read one');
    const createDirect = await load(
      system,
      { ...common, ...createCalls(`${requestsUrl}${createPath}`, direct, template, true) },
      201,
    );
    line('create, direct to requests', createDirect);
    print(`  ${''.padEnd(44)} RSS after: ${rssNow(system)}`);
    const createGateway = await load(
      system,
      { ...common, ...createCalls(`${system.gatewayUrl}${createPath}`, auth, template, true) },
      201,
    );
    line('create, through the gateway', createGateway);
    print(`  ${''.padEnd(44)} RSS after: ${rssNow(system)}`);
    const createHot = await load(
      system,
      { ...common, ...createCalls(`${system.gatewayUrl}${createPath}`, auth, template, false) },
      201,
    );
    line('create, gateway, the same 2 signers in each', createHot);
    const readDirect = await load(
      system,
      { ...common, url: `${requestsUrl}${readPath}`, headers: direct },
      200,
    );
    line('GET /v1.1/requests/:id, direct to requests', readDirect);
    print(`  ${''.padEnd(44)} RSS after: ${rssNow(system)}`);
    const readGateway = await load(
      system,
      { ...common, url: `${system.gatewayUrl}${readPath}`, headers: auth },
      200,
    );
    line('GET /v1.1/requests/:id, through the gateway', readGateway);
    print(`  ${''.padEnd(44)} RSS after: ${rssNow(system)}`);
    print();

    print(
      `(3) send → e-mail accepted by the SMTP server, ${SEND_RATE} sends/s for ${SEND_SECONDS} s, through the gateway`,
    );
    const send = await sendToEmail(esign, system, tenant, template);
    print(
      `  ${send.count} sends at ${send.achieved.toFixed(1)}/s: send → e-mail p50 ${ms(send.p50)}, p99 ${ms(send.p99)}, max ${ms(send.max)}; the send call itself p50 ${ms(send.sendP50)}, p99 ${ms(send.sendP99)}`,
    );
    print(`  stages: ${send.stages}`);
    print(`  ${send.cpu}`);
    print(`  RSS after: ${rssNow(system)}`);
    print();

    const bulkRows = Number(process.env.BENCH_BULK_ROWS ?? 1000);
    print(`(3b) bulk send of ${bulkRows} rows, each created and sent, through the gateway (202 → completed)`);
    const bulk = await bulkSendRun(esign, tenant, template, bulkRows);
    print(
      `  bulk send: ${bulk.rowsPerSecond.toFixed(1)} rows/s (${bulk.rows} rows in ${bulk.seconds.toFixed(1)} s, ${bulk.sent} sent)`,
    );
    print();

    print('(4) ceilings, same machine, same run');
    const koa = await load(system, { ...common, url: bareKoa.url }, 200);
    line('bare koa JSON route', koa);
    const sqlCeiling = await rawSqlCeiling(system.databases.requests.url, tenant.site.id, template, true);
    line(`raw SQL transaction of a create's rows (${CONNECTIONS} clients)`, sqlCeiling);
    const sqlHot = await rawSqlCeiling(system.databases.requests.url, tenant.site.id, template, false);
    line(`the same, the same 2 signers in each`, sqlHot);
    print();

    print('(5) peak RSS (VmHWM) of each service over the whole run');
    const rss = system.peakRssKb();
    for (const name of ['gateway', 'auth', 'requests', 'notifier'] as const)
      print(`  ${name.padEnd(10)} ${((rss[name] ?? 0) / 1024).toFixed(1)} MB`);
    const largest = Math.max(...Object.values(rss)) / 1024;
    print();

    const costThroughput = 1 - createGateway.rps / createDirect.rps;
    const costReadThroughput = 1 - readGateway.rps / readDirect.rps;
    print('ratios');
    print(
      `gateway/direct create throughput: ${(createGateway.rps / createDirect.rps).toFixed(3)} (the gateway costs ${(costThroughput * 100).toFixed(1)}%; target < 15%)`,
    );
    print(
      `gateway - direct create p99: ${ms(createGateway.p99 - createDirect.p99)} (target < 2 ms); p50: ${ms(createGateway.p50 - createDirect.p50)}`,
    );
    print(
      `gateway/direct read throughput: ${(readGateway.rps / readDirect.rps).toFixed(3)} (the gateway costs ${(costReadThroughput * 100).toFixed(1)}%)`,
    );
    print(
      `gateway - direct read p99: ${ms(readGateway.p99 - readDirect.p99)}; p50: ${ms(readGateway.p50 - readDirect.p50)}`,
    );
    print(
      `creates through the gateway / raw SQL ceiling: ${(createGateway.rps / sqlCeiling.rps).toFixed(3)} (target ≥ 0.5)`,
    );
    print(
      `the same 2 signers in each, gateway / raw SQL: ${(createHot.rps / sqlHot.rps).toFixed(3)} (row locks on the hot signers bound both)`,
    );
    print(`creates through the gateway / bare koa ceiling: ${(createGateway.rps / koa.rps).toFixed(3)}`);
    print(
      `send → e-mail p99: ${ms(send.p99)} at ${send.achieved.toFixed(0)} sends/s (target < 250 ms at 100/s)`,
    );
    print(`largest service peak RSS: ${largest.toFixed(1)} MB (target < 150 MB)`);
  } finally {
    bareKoa.stop();
    await system.stop();
  }
};

await main();
