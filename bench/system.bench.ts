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
 *   3. send → e-mail accepted by the SMTP server, at a steady rate: p50, p99; then a ramp
 *      of rising rates for the highest one the system sustains with p99 < 1 s
 *   4. ceilings: a bare koa JSON route; a raw SQL transaction inserting a create's rows,
 *      with new signers each time at the same concurrency (and the hot-signer case)
 *   5. each service's peak RSS (VmHWM)
 *
 * with the CPU each service spent per create and per send (from /proc), and their sum.
 * It ends with the ratios, one per line. Not part of `npm test`: a measurement, not a
 * check. The load generator (autocannon) runs in this process, on the same 2 cores as
 * the services and Postgres.
 *
 * Environment: BENCH_SECONDS (10 per run), BENCH_CONNECTIONS (16), BENCH_SEND_RATE (100
 * sends/s), BENCH_SEND_SECONDS (30), BENCH_SEND_WARMUP_SECONDS (5, sends at the same
 * rate before the measured ones, as every create run has its warm-up; 0 for none),
 * BENCH_RAMP_RATES (sends/s of the ramp's phases, comma-separated:
 * 50,100,150,200,300,400; "off" skips it), BENCH_RAMP_SECONDS (10 per
 * phase), BENCH_IDLE_SECONDS (5, the services idle: their fixed CPU cost), BENCH_PAIRED_RATE
 * (50 creates/s on each path in the side-by-side run), BENCH_BULK_ROWS
 * (1000, the bulk send's rows), BENCH_LOG_LEVEL
 * of the services (info, as deployed). A smoke run that only checks the bench works:
 * BENCH_SMOKE=1 (2 s runs, 20 sends/s for 3 s, a ramp of 10,20).
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createEsignClient, type Schemas } from '@esign/client';
import { PRINCIPAL_AUDIENCES, PRINCIPAL_HEADER } from '@esign/contracts';
import { repoRoot, startEsignSystem, useLocalServers } from '@esign/testing';
import { TEMPLATE, answer, createBody, createCalls } from './support/bodies.js';
import { bulkSendRun } from './support/bulk-send.js';
import {
  SERVICES,
  cpuPerCall,
  cpuSeconds,
  cpuText,
  ms,
  postgresCpuSeconds,
  print,
  rssNow,
  sleep,
} from './support/measure.js';
import { line, load, sendLine, sideBySide, startBareKoa } from './support/runs.js';
import { sendPhase, sendRamp, type SendPhase } from './support/send.js';
import { rawSqlCeiling } from './support/sql-ceiling.js';

useLocalServers();

const SMOKE = process.env.BENCH_SMOKE === '1';
const setting = (name: string, normal: number, smoke: number) =>
  Number(process.env[name] ?? (SMOKE ? smoke : normal));
const SECONDS = setting('BENCH_SECONDS', 10, 2);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 16, 16);
const SEND_RATE = setting('BENCH_SEND_RATE', 100, 20);
const SEND_SECONDS = setting('BENCH_SEND_SECONDS', 30, 3);
/**
 * The notifier handles nothing before the first send, so without a warm-up the send
 * phase's CPU included compiling its hot paths (docs/benchmarks.md, session 35). Runs
 * before had none; the summary prints the cold figure too, for comparison with them.
 */
const SEND_WARMUP_SECONDS = setting('BENCH_SEND_WARMUP_SECONDS', 5, 1);
const RAMP_SECONDS = setting('BENCH_RAMP_SECONDS', 10, 2);
const IDLE_SECONDS = setting('BENCH_IDLE_SECONDS', 5, 2);
/** Creates a second on each path in the side-by-side run (below saturation: latency, not queueing). */
const PAIRED_RATE = setting('BENCH_PAIRED_RATE', 50, 20);
const BULK_ROWS = setting('BENCH_BULK_ROWS', 1000, 50);
const RAMP_RATES = (process.env.BENCH_RAMP_RATES ?? (SMOKE ? '10,20' : '50,100,150,200,300,400'))
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
/** BENCH_NODE_ARGS: node options for every service (e.g. V8 heap flags), space-separated. */
/** `requests,notifier`: write a CPU profile of those services into BENCH_PROFILE_DIR (.data/profiles). */
const PROFILE = (process.env.BENCH_PROFILE ?? '').split(',').filter((s) => s !== '');
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ?? join(repoRoot, '.data', 'profiles');

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

    // What the services spend doing nothing (pollers, timers): part of every per-call figure,
    // and most of it at low rates.
    const idleBefore = cpuSeconds(system);
    const postgresBefore = postgresCpuSeconds();
    await sleep(IDLE_SECONDS * 1000);
    const idle = cpuPerCall(idleBefore, cpuSeconds(system), IDLE_SECONDS);
    const postgresIdle = ((postgresCpuSeconds() - postgresBefore) * 1000) / IDLE_SECONDS;
    print(
      `(0) idle, ${IDLE_SECONDS} s: CPU per second ${cpuText(idle)}; Postgres (all its processes) ${ms(postgresIdle)}`,
    );
    print();

    print('(1, 2) create a Request (1 contract, 2 signers, 3 fields; new signers in each), and read one');
    const createDirect = await load(
      system,
      { ...common, ...createCalls(`${requestsUrl}${createPath}`, direct, template, true) },
      201,
      SECONDS,
    );
    line('create, direct to requests', createDirect);
    print(`  ${''.padEnd(44)} RSS after: ${rssNow(system)}`);
    const createGateway = await load(
      system,
      { ...common, ...createCalls(`${system.gatewayUrl}${createPath}`, auth, template, true) },
      201,
      SECONDS,
    );
    line('create, through the gateway', createGateway);
    print(`  ${''.padEnd(44)} RSS after: ${rssNow(system)}`);
    const createHot = await load(
      system,
      { ...common, ...createCalls(`${system.gatewayUrl}${createPath}`, auth, template, false) },
      201,
      SECONDS,
    );
    line('create, gateway, the same 2 signers in each', createHot);
    const paired = await sideBySide(
      { url: `${requestsUrl}${createPath}`, headers: direct, body: () => createBody(template, true) },
      { url: `${system.gatewayUrl}${createPath}`, headers: auth, body: () => createBody(template, true) },
      201,
      PAIRED_RATE,
      SECONDS,
    );
    print(
      `  create at ${PAIRED_RATE}/s direct and ${PAIRED_RATE}/s through the gateway, side by side: direct p50 ${ms(paired.a.p50)}, p99 ${ms(paired.a.p99)}; gateway p50 ${ms(paired.b.p50)}, p99 ${ms(paired.b.p99)}${paired.a.errors + paired.b.errors > 0 ? ` (${paired.a.errors + paired.b.errors} not ok)` : ''}`,
    );
    const readDirect = await load(
      system,
      { ...common, url: `${requestsUrl}${readPath}`, headers: direct },
      200,
      SECONDS,
    );
    line('GET /v1.1/requests/:id, direct to requests', readDirect);
    print(`  ${''.padEnd(44)} RSS after: ${rssNow(system)}`);
    const readGateway = await load(
      system,
      { ...common, url: `${system.gatewayUrl}${readPath}`, headers: auth },
      200,
      SECONDS,
    );
    line('GET /v1.1/requests/:id, through the gateway', readGateway);
    print(`  ${''.padEnd(44)} RSS after: ${rssNow(system)}`);
    print();

    print(
      `(3) send → e-mail accepted by the SMTP server, ${SEND_RATE} sends/s for ${SEND_SECONDS} s${SEND_WARMUP_SECONDS > 0 ? ` after a ${SEND_WARMUP_SECONDS} s warm-up at the same rate` : ''}, through the gateway`,
    );
    const warmUp =
      SEND_WARMUP_SECONDS > 0
        ? await sendPhase(esign, system, tenant, template, SEND_RATE, SEND_WARMUP_SECONDS)
        : undefined;
    if (warmUp !== undefined)
      print(
        `  warm-up: ${warmUp.count} sends, send → e-mail p99 ${ms(warmUp.p99)}; CPU per send ${cpuText(warmUp.cpu)}`,
      );
    const send = await sendPhase(esign, system, tenant, template, SEND_RATE, SEND_SECONDS);
    sendLine(send);
    print(`  RSS after: ${rssNow(system)}`);
    let highest: SendPhase | undefined;
    if (RAMP_RATES.length > 0) {
      print(
        `  ramp: ${RAMP_RATES.join(', ')} sends/s, ${RAMP_SECONDS} s each, until one is not sustained (p99 ≥ 1 s, a send refused, or the rate not kept)`,
      );
      highest = await sendRamp(
        (rate) => sendPhase(esign, system, tenant, template, rate, RAMP_SECONDS),
        RAMP_RATES,
        (phase) =>
          print(
            `    ${String(phase.rate).padStart(4)}/s: achieved ${phase.achieved.toFixed(1)}/s, send → e-mail p50 ${ms(phase.p50)}, p99 ${ms(phase.p99)}${phase.failures > 0 ? `, ${phase.failures} not sent or not arrived` : ''}; CPU per send ${ms(phase.cpu.totalMs)}`,
          ),
      );
    }
    print();

    const bulkRows = BULK_ROWS;
    print(`(3b) bulk send of ${bulkRows} rows, each created and sent, through the gateway (202 → completed)`);
    const bulk = await bulkSendRun(esign, tenant, template, bulkRows);
    print(
      `  bulk send: ${bulk.rowsPerSecond.toFixed(1)} rows/s (${bulk.rows} rows in ${bulk.seconds.toFixed(1)} s, ${bulk.sent} sent)`,
    );
    print();

    print('(4) ceilings, same machine, same run');
    const koa = await load(system, { ...common, url: bareKoa.url }, 200, SECONDS);
    line('bare koa JSON route', koa);
    const sqlCeiling = await rawSqlCeiling(
      system.databases.requests.url,
      tenant.site.id,
      template,
      true,
      CONNECTIONS,
      SECONDS,
    );
    line(`raw SQL transaction of a create's rows (${CONNECTIONS} clients)`, sqlCeiling);
    const sqlHot = await rawSqlCeiling(
      system.databases.requests.url,
      tenant.site.id,
      template,
      false,
      CONNECTIONS,
      SECONDS,
    );
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
    if (PROFILE.length > 0) {
      print('profile windows (monotonic µs, the clock of the .cpuprofile timestamps)');
      for (const [name, window] of [
        ['create-direct', createDirect.window],
        ['create-gateway', createGateway.window],
        ['read-gateway', readGateway.window],
        ['send', send.window],
      ] as const)
        print(`  ${name} ${window?.[0] ?? '?'} ${window?.[1] ?? '?'}`);
      print();
    }

    print('ratios');
    print(
      `gateway/direct create throughput: ${(createGateway.rps / createDirect.rps).toFixed(3)} (the gateway costs ${(costThroughput * 100).toFixed(1)}%; target < 15%)`,
    );
    print(
      `gateway - direct create p99: ${ms(createGateway.p99 - createDirect.p99)} (target < 2 ms); p50: ${ms(createGateway.p50 - createDirect.p50)}`,
    );
    print(
      `gateway - direct create p99 at ${paired.rate}/s each, side by side: ${ms(paired.b.p99 - paired.a.p99)}; p50: ${ms(paired.b.p50 - paired.a.p50)}`,
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
    print(
      `CPU per create through the gateway, summed over the services: ${ms(createGateway.cpu?.totalMs ?? NaN)} (direct: ${ms(createDirect.cpu?.totalMs ?? NaN)})`,
    );
    print(`CPU per send, summed over the services: ${ms(send.cpu.totalMs)}`);
    if (warmUp !== undefined)
      print(
        `the same over the warm-up and the run together (cold, as runs before session 35 measured it): ${ms(
          (warmUp.cpu.totalMs * warmUp.count + send.cpu.totalMs * send.count) / (warmUp.count + send.count),
        )}`,
      );
    print(
      RAMP_RATES.length === 0
        ? 'highest send rate sustained with p99 < 1 s: not measured (BENCH_RAMP_RATES=off)'
        : highest === undefined
          ? `highest send rate sustained with p99 < 1 s: below ${RAMP_RATES[0]}/s (the lowest rate tried)`
          : `highest send rate sustained with p99 < 1 s: ${highest.achieved.toFixed(0)} sends/s (p99 ${ms(highest.p99)}; rates tried ${RAMP_RATES.join(', ')})`,
    );
  } finally {
    bareKoa.stop();
    await system.stop();
  }
};

await main();
