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
 *   5. each service's peak RSS (VmHWM), and what its malloc trimmer did
 *   6. each service's RSS at rest, some seconds after the last call
 *
 * with the CPU each service spent per create and per send (from /proc), and their sum.
 * It ends with the ratios, one per line. Not part of `npm test`: a measurement, not a
 * check. The load generator (autocannon) runs in this process, on the same 2 cores as
 * the services and Postgres.
 *
 * Its settings, from the environment, are described in support/settings.ts.
 */
import { cpus, loadavg } from 'node:os';
import type { Schemas } from '@esign/client';
import { freePort, startEsignSystem, useLocalServers } from '@esign/testing';
import { answer, createBody, createCalls } from './support/bodies.js';
import { bulkSendRun } from './support/bulk-send.js';
import { measureCeilings } from './support/ceilings.js';
import { idlePhase } from './support/idle.js';
import {
  SERVICES,
  cpuText,
  ms,
  print,
  printPeakRss,
  printRssAfter,
  rssNow,
  sleep,
} from './support/measure.js';
import { line, load, rampLine, sendLine, sideBySide, startBareKoa } from './support/runs.js';
import { sendPhase, sendRamp, type SendPhase } from './support/send.js';
import { prepareCreates } from './support/tenant.js';
import {
  perfNodeArgs,
  preparePerf,
  printPerfReport,
  startPerf,
  type PerfRecording,
  type Window,
} from './support/perf.js';
import { printRatios } from './support/ratios.js';
import {
  SECONDS,
  CONNECTIONS,
  SEND_RATE,
  SEND_SECONDS,
  SEND_WARMUP_SECONDS,
  RAMP_SECONDS,
  IDLE_SECONDS,
  REST_SECONDS,
  PAIRED_RATE,
  BULK_ROWS,
  RAMP_RATES,
  LOG_LEVEL,
  PERF,
  PERF_DIR,
  PROFILE,
  PROFILE_DIR,
  PROFILE_TEXT,
  RATE_LIMITS_TEXT,
  benchServiceEnv,
} from './support/settings.js';

useLocalServers();

const main = async () => {
  print(`E-signature platform benchmark: ${new Date().toISOString()}`);
  print(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; the load generator shares these cores with the services and Postgres`,
  );
  print(
    `runs: ${SECONDS} s each after a 2 s warm-up, ${CONNECTIONS} connections; services at LOG_LEVEL=${LOG_LEVEL}; ${RATE_LIMITS_TEXT}`,
  );
  if (PROFILE_TEXT !== undefined) print(PROFILE_TEXT);
  print();

  // The gateway's /metrics answers on its operations port only.
  const env = await benchServiceEnv({ LOG_LEVEL: LOG_LEVEL }, { OPS_PORT: String(await freePort()) });
  if (PERF) preparePerf(PERF_DIR);
  const system = await startEsignSystem({
    label: 'bench',
    // As deployed: the migration step first, so no service loads the migration library.
    migrateFirst: true,
    env,
    nodeArgs: Object.fromEntries(
      SERVICES.map((name) => [
        name,
        [
          ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== ''),
          ...(PROFILE.includes(name)
            ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}.cpuprofile`]
            : []),
          ...(PERF ? perfNodeArgs(PERF_DIR) : []),
        ],
      ]),
    ),
  });
  const bareKoa = await startBareKoa();
  let recording: PerfRecording | undefined;
  try {
    if (PERF)
      recording = await startPerf(
        PERF_DIR,
        SERVICES.map((name) => system.services[name].process.pid ?? -1),
      );
    const { tenant, esign, template, auth, direct, createPath } = await prepareCreates(system, 'Bench');
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

    print(await idlePhase(system, IDLE_SECONDS));
    print();

    print(
      '(1, 2) create a Request (1 contract, 2 signers, 3 fields; new signers in each), and read one; the databases analysed after each warm-up',
    );
    const createDirect = await load(
      system,
      { ...common, ...createCalls(`${requestsUrl}${createPath}`, direct, template, true) },
      201,
      SECONDS,
    );
    line('create, direct to requests', createDirect);
    printRssAfter(system);
    const createGateway = await load(
      system,
      { ...common, ...createCalls(`${system.gatewayUrl}${createPath}`, auth, template, true) },
      201,
      SECONDS,
    );
    line('create, through the gateway', createGateway);
    printRssAfter(system);
    const createHot = await load(
      system,
      { ...common, ...createCalls(`${system.gatewayUrl}${createPath}`, auth, template, false) },
      201,
      SECONDS,
    );
    line('create, gateway, the same 2 signers in each', createHot);
    printRssAfter(system);
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
    printRssAfter(system);
    const readDirect = await load(
      system,
      { ...common, url: `${requestsUrl}${readPath}`, headers: direct },
      200,
      SECONDS,
    );
    line('GET /v1.1/requests/:id, direct to requests', readDirect);
    printRssAfter(system);
    const readGateway = await load(
      system,
      { ...common, url: `${system.gatewayUrl}${readPath}`, headers: auth },
      200,
      SECONDS,
    );
    line('GET /v1.1/requests/:id, through the gateway', readGateway);
    printRssAfter(system);
    print();

    print(
      `(3) send → e-mail accepted by the SMTP server, ${SEND_RATE} sends/s for ${SEND_SECONDS} s${SEND_WARMUP_SECONDS > 0 ? ` after a ${SEND_WARMUP_SECONDS} s warm-up at the same rate` : ''}, through the gateway; the databases analysed before each phase`,
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
    printRssAfter(system, 2);
    let highest: SendPhase | undefined;
    if (RAMP_RATES.length > 0) {
      print(
        `  ramp: ${RAMP_RATES.join(', ')} sends/s, ${RAMP_SECONDS} s each, until one is not sustained (p99 ≥ 1 s, a send refused, or the rate not kept)`,
      );
      highest = await sendRamp(
        (rate) => sendPhase(esign, system, tenant, template, rate, RAMP_SECONDS),
        RAMP_RATES,
        (phase) => {
          rampLine(phase);
          printRssAfter(system, 11);
        },
      );
    }
    print();

    const bulkRows = BULK_ROWS;
    print(`(3b) bulk send of ${bulkRows} rows, each created and sent, through the gateway (202 → completed)`);
    const bulk = await bulkSendRun(esign, tenant, template, bulkRows);
    print(
      `  bulk send: ${bulk.rowsPerSecond.toFixed(1)} rows/s (${bulk.rows} rows in ${bulk.seconds.toFixed(1)} s, ${bulk.sent} sent)`,
    );
    printRssAfter(system, 2);
    print();

    const { koa, sqlCeiling, sqlHot } = await measureCeilings(system, bareKoa.url, tenant.site.id, template);

    print('(5) peak RSS (VmHWM) of each service over the whole run, and its malloc trims');
    const largest = await printPeakRss(system, `http://127.0.0.1:${env.gateway.OPS_PORT}`);
    print();

    // What a service holds once the load has gone: V8's memory reducer checks every 8 s
    // whether to give pages back (ADR 2860).
    print(`(6) at rest: RSS of each service ${REST_SECONDS} s after the last call`);
    await sleep(REST_SECONDS * 1000);
    print(`  ${rssNow(system)}`);
    print();

    const windows: Window[] = [
      ['create-direct', ...createDirect.window],
      ['create-gateway', ...createGateway.window],
      ['read-gateway', ...readGateway.window],
      ['send', ...send.window],
    ];
    if (recording !== undefined) {
      await recording.stop();
      await printPerfReport(PERF_DIR, system, windows);
    }
    if (PROFILE.length > 0 || recording !== undefined) {
      print(
        "profile windows (monotonic µs: the clock of the .cpuprofile timestamps, and of perf's in seconds)",
      );
      for (const [name, from, to] of windows) print(`  ${name} ${from} ${to}`);
      print();
    }

    printRatios({
      createDirect,
      createGateway,
      createHot,
      paired,
      readDirect,
      readGateway,
      koa,
      sqlCeiling,
      sqlHot,
      send,
      warmUp,
      largestRssMb: largest,
      rampRates: RAMP_RATES,
      highest,
    });
  } finally {
    await recording?.stop();
    bareKoa.stop();
    await system.stop();
  }
};

await main();
