/**
 * What the gateway costs: one authenticated route (GET /v1.1/sites/1/requests) measured
 * straight against a trivial upstream, through a bare keep-alive hop (plain node:http +
 * undici, nothing else: what any Node proxy costs here), and through the real gateway
 * (built, in its own process, with token verification, cached introspection, signed
 * principal, rate limits, access log and metrics all on).
 *
 *   npm run bench -w services/gateway
 *
 * Environment: BENCH_SECONDS (10 per run), BENCH_CONNECTIONS (16), BENCH_RATE (1000 req/s
 * for the fixed-rate phase), UPSTREAM_DELAY_MS (0; e.g. 2 to stand in for a service that
 * does real work), LOG_LEVEL of the gateway (info). Not part of `npm test`: a measurement,
 * not a check. Each process's CPU per call comes from /proc (Linux), so it holds even
 * when the machine is shared and wall-clock figures are not.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startAuthDouble } from '../test/support/auth-double.js';
import { testGatewayKeys } from '@esign/testing';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rate = Number(process.env.BENCH_RATE ?? 1000);
const delayMs = Number(process.env.UPSTREAM_DELAY_MS ?? 0);
const secret = 'bench-internal-secret-0123456789abcdef';
const route = '/v1.1/sites/1/requests';

/** Distinct free ports: all held open at once, so the system cannot hand one out twice. */
const freePorts = async (count: number): Promise<number[]> => {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
};

const waitFor = async (url: string) => {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
};

const children: ChildProcess[] = [];
const start = (args: string[], env: Record<string, string>) => {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
};

// A trivial upstream: a small JSON answer, optionally after a delay.
const upstreamSource = `
  import { createServer } from 'node:http';
  const body = JSON.stringify({ page: 1, per_page: 20, count: 0, total_count: 0, has_more: false, data: [] });
  const delay = Number(process.env.UPSTREAM_DELAY_MS);
  const answer = (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => (delay > 0 ? setTimeout(answer, delay, res) : answer(res)));
  });
  server.keepAliveTimeout = 65000;
  server.listen(Number(process.env.PORT), '127.0.0.1');
`;

// The floor: one keep-alive hop with nothing else, to tell the hop's cost from ours.
const bareHopSource = `
  import { createServer } from 'node:http';
  import { Pool } from 'undici';
  const pool = new Pool(process.env.UPSTREAM, { connections: 128 });
  const server = createServer((req, res) => {
    pool
      .stream({ method: req.method, path: req.url, headers: { 'x-request-id': '1' } }, ({ statusCode, headers }) => {
        res.writeHead(statusCode, headers);
        return res;
      })
      .catch(() => res.destroy());
  });
  server.keepAliveTimeout = 65000;
  server.listen(Number(process.env.PORT), '127.0.0.1');
`;

/** User + system CPU seconds of a process so far (Linux /proc; undefined elsewhere). */
const cpuSeconds = (pid: number | undefined): number | undefined => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ ticks
  } catch {
    return undefined;
  }
};

interface Measurement {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** CPU the measured hop (upstream, bare hop or gateway) spent per answered call, µs. */
  readonly cpuUs: number | undefined;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** Runs autocannon and takes percentiles from every response time it reports (µs precision). */
const measure = async (url: string, pid: number | undefined, overallRate?: number): Promise<Measurement> => {
  const times: number[] = [];
  const cpuBefore = cpuSeconds(pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, headers, connections, duration: seconds, ...(overallRate === undefined ? {} : { overallRate }) },
      (error, result) =>
        error === null || error === undefined
          ? resolve(result)
          : reject(error instanceof Error ? error : new Error(String(error))),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) times.push(ms);
    });
  });
  const cpuAfter = cpuSeconds(pid);
  times.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    errors: result.errors + result.non2xx + result.timeouts,
    cpuUs:
      cpuAfter === undefined || cpuBefore === undefined
        ? undefined
        : ((cpuAfter - cpuBefore) / result.requests.total) * 1e6,
  };
};

const print = (line = '') => process.stdout.write(`${line}\n`);
let headers: Record<string, string> = {};

const main = async () => {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
    cwd: root,
    stdio: 'inherit',
  });
  const auth = await startAuthDouble({ internalSecret: secret });
  const token = await auth.issue([{ id: 1, name: 'Bench site' }]);
  headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const [upstreamPort, hopPort, gatewayPort] = (await freePorts(3)) as [number, number, number];
  const upstream = start(['--input-type=module', '-e', upstreamSource], {
    PORT: String(upstreamPort),
    UPSTREAM_DELAY_MS: String(delayMs),
  });
  const hop = start(['--input-type=module', '-e', bareHopSource], {
    PORT: String(hopPort),
    UPSTREAM: `http://127.0.0.1:${upstreamPort}`,
  });
  const gateway = start([join(root, 'services/gateway/dist/src/main.js')], {
    PORT: String(gatewayPort),
    AUTH_URL: auth.url,
    REQUESTS_URL: `http://127.0.0.1:${upstreamPort}`,
    INTROSPECTION_SECRET: secret,
    PRINCIPAL_SIGNING_KEY: testGatewayKeys.signingKeyEnv,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // Limits stay on (their cost is measured) but high enough never to refuse.
    RATE_LIMIT_TOKEN: '100000000/1s',
    RATE_LIMIT_SITE: '100000000/1s',
  });
  const targets = {
    direct: { url: `http://127.0.0.1:${upstreamPort}${route}`, pid: upstream.pid },
    'bare hop': { url: `http://127.0.0.1:${hopPort}${route}`, pid: hop.pid },
    gateway: { url: `http://127.0.0.1:${gatewayPort}${route}`, pid: gateway.pid },
  };
  for (const { url } of Object.values(targets)) await waitFor(new URL('/healthz', url).href);

  const loadBefore = loadavg()[0]!;
  for (const { url } of Object.values(targets)) await autocannon({ url, headers, connections, duration: 2 });
  const rows: Array<[string, Measurement]> = [];
  for (const overallRate of [undefined, rate]) {
    for (const [name, { url, pid }] of Object.entries(targets)) {
      rows.push([
        `${name}, ${overallRate === undefined ? 'saturated' : `${overallRate} req/s`}`,
        await measure(url, pid, overallRate),
      ]);
    }
  }
  const loadAfter = loadavg()[0]!;

  const fmt = (n: number) => n.toFixed(3);
  print(
    `\nGET ${route}: ${connections} connections, ${seconds} s a run, upstream delay ${delayMs} ms, ` +
      `node ${process.version}, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
  );
  print('run                       req/s    p50 ms    p99 ms  errors  CPU/call of the measured hop');
  for (const [name, m] of rows) {
    const cpu = m.cpuUs === undefined ? '' : `${m.cpuUs.toFixed(0)} µs`;
    print(
      `${name.padEnd(24)} ${m.rps.toFixed(0).padStart(7)}  ${fmt(m.p50).padStart(7)}  ${fmt(m.p99).padStart(8)}  ${String(m.errors).padStart(6)}  ${cpu}`,
    );
  }
  const at = (name: string) => rows.find(([n]) => n === name)![1];
  const [d, h, g] = [at('direct, saturated'), at('bare hop, saturated'), at('gateway, saturated')];
  const [dr, hr, gr] = [
    at(`direct, ${rate} req/s`),
    at(`bare hop, ${rate} req/s`),
    at(`gateway, ${rate} req/s`),
  ];
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
  print();
  print(
    `saturated throughput: gateway ${pct(g.rps, d.rps)} of direct, bare hop ${pct(h.rps, d.rps)} of direct`,
  );
  print(
    `  the gateway against the bare hop: ${pct(g.rps, h.rps)} (its own cost beyond any hop: ${pct(h.rps - g.rps, h.rps)})`,
  );
  print(
    `latency added at ${rate} req/s: gateway p50 +${fmt(gr.p50 - dr.p50)} ms, p99 +${fmt(gr.p99 - dr.p99)} ms;`,
  );
  print(`  bare hop p50 +${fmt(hr.p50 - dr.p50)} ms, p99 +${fmt(hr.p99 - dr.p99)} ms`);
  if (g.cpuUs !== undefined && h.cpuUs !== undefined && d.cpuUs !== undefined) {
    print(
      `CPU per call, saturated: upstream ${d.cpuUs.toFixed(0)} µs, bare hop ${h.cpuUs.toFixed(0)} µs, gateway ${g.cpuUs.toFixed(0)} µs`,
    );
  }
  print(`introspection calls during the whole run: ${auth.introspections.length}`);
  await auth.close();
};

main()
  .catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => children.forEach((child) => child.kill('SIGTERM')));
