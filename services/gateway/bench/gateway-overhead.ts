/**
 * What the gateway costs: one authenticated route (GET /v1.1/sites/1/requests, and POST to
 * it with a create's body of about a kilobyte) measured straight against a trivial
 * upstream, through a bare keep-alive hop (plain node:http + undici, nothing else: what
 * any Node proxy costs here), and through the real gateway (built, in its own process,
 * with token verification, cached introspection, signed principal, rate limits, access
 * log and metrics all on).
 *
 *   npm run bench -w services/gateway
 *
 * Environment: BENCH_SECONDS (10 per run), BENCH_CONNECTIONS (16), BENCH_RATE (1000 req/s
 * for the fixed-rate phase), UPSTREAM_DELAY_MS (0; e.g. 2 to stand in for a service that
 * does real work), LOG_LEVEL of the gateway (info), BENCH_BUILD=0 to skip the build. Not part of `npm test`: a measurement,
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
import { percentile, testGatewayKeys } from '@esign/testing';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rate = Number(process.env.BENCH_RATE ?? 1000);
const delayMs = Number(process.env.UPSTREAM_DELAY_MS ?? 0);
const secret = 'bench-internal-secret-0123456789abcdef';
const route = '/v1.1/sites/1/requests';
/** A create's body: the README's cost example (1 contract, 2 signers, 3 fields), about 1 KiB. */
const createBody = JSON.stringify({
  contracts: [101],
  signers: [
    {
      signer_id: 'signer-0f3c2a@example.com',
      signer: { email: 'signer-0f3c2a@example.com', name: 'Ada Lovelace' },
      send_to: { email: true },
    },
    {
      signer_id: '2025550143',
      signer: { mobile_number: '2025550143', name: 'Grace Hopper' },
      send_to: { sms: true },
    },
  ],
  fields: [
    { name: 'full_name', assigned_to: 'signer-0f3c2a@example.com', value: 'Ada Lovelace' },
    { name: 'company', assigned_to: 'signer-0f3c2a@example.com', value: 'Analytical Engines Ltd' },
    { name: 'phone', assigned_to: '2025550143', value: '' },
  ],
  message: {
    subject: 'Please sign the services agreement',
    body: 'Hello, here is the agreement we discussed. '.repeat(8),
  },
});

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
  const answer = (res, status) => res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  const server = createServer((req, res) => {
    const status = req.method === 'POST' ? 201 : 200;
    req.resume();
    req.on('end', () => (delay > 0 ? setTimeout(answer, delay, res, status) : answer(res, status)));
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
      .stream({ method: req.method, path: req.url, headers: { 'x-request-id': '1', ...(req.headers['content-length'] ? { 'content-length': req.headers['content-length'] } : {}) }, body: req.method === 'POST' ? req : undefined }, ({ statusCode, headers }) => {
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
  /** CPU the upstream spent per answered call, µs (the same as cpuUs for direct runs). */
  readonly upstreamCpuUs: number | undefined;
}

type Method = 'GET' | 'POST';

const perCall = (before: number | undefined, after: number | undefined, calls: number) =>
  before === undefined || after === undefined ? undefined : ((after - before) / calls) * 1e6;

/** Runs autocannon and takes percentiles from every response time it reports (µs precision). */
const measure = async (
  url: string,
  method: Method,
  pids: { readonly hop: number | undefined; readonly upstream: number | undefined },
  overallRate?: number,
): Promise<Measurement> => {
  const times: number[] = [];
  const [hopBefore, upstreamBefore] = [cpuSeconds(pids.hop), cpuSeconds(pids.upstream)];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        ...requestOf(method),
        connections,
        duration: seconds,
        ...(overallRate === undefined ? {} : { overallRate }),
      },
      (error, result) =>
        error === null || error === undefined
          ? resolve(result)
          : reject(error instanceof Error ? error : new Error(String(error))),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200 || status === 201) times.push(ms);
    });
  });
  const [hopAfter, upstreamAfter] = [cpuSeconds(pids.hop), cpuSeconds(pids.upstream)];
  times.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors: result.errors + result.non2xx + result.timeouts,
    cpuUs: perCall(hopBefore, hopAfter, result.requests.total),
    upstreamCpuUs: perCall(upstreamBefore, upstreamAfter, result.requests.total),
  };
};

const print = (line = '') => process.stdout.write(`${line}\n`);
let headers: Record<string, string> = {};
const requestOf = (method: Method) =>
  method === 'GET'
    ? { method, headers }
    : { method, headers: { ...headers, 'content-type': 'application/json' }, body: createBody };

const main = async () => {
  // BENCH_BUILD=0 measures the dist as it stands (an A/B against an earlier commit's build).
  if (process.env.BENCH_BUILD !== '0')
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
  for (const method of ['GET', 'POST'] as const) {
    for (const overallRate of [undefined, rate]) {
      for (const [name, { url, pid }] of Object.entries(targets)) {
        rows.push([
          `${method} ${name}, ${overallRate === undefined ? 'saturated' : `${overallRate} req/s`}`,
          await measure(url, method, { hop: pid, upstream: upstream.pid }, overallRate),
        ]);
      }
    }
  }
  const loadAfter = loadavg()[0]!;

  const fmt = (n: number) => n.toFixed(3);
  const us = (n: number | undefined) => (n === undefined ? '' : `${n.toFixed(0)} µs`);
  print(
    `\n${route} (POST: a ${Buffer.byteLength(createBody)}-byte create body): ${connections} connections, ` +
      `${seconds} s a run, upstream delay ${delayMs} ms, ` +
      `node ${process.version}, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
  );
  print(
    'run                            req/s    p50 ms    p99 ms  errors  CPU/call: the measured hop, the upstream',
  );
  for (const [name, m] of rows) {
    print(
      `${name.padEnd(29)} ${m.rps.toFixed(0).padStart(7)}  ${fmt(m.p50).padStart(7)}  ${fmt(m.p99).padStart(8)}  ${String(m.errors).padStart(6)}  ${us(m.cpuUs).padStart(7)}  ${us(m.upstreamCpuUs).padStart(7)}`,
    );
  }
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
  for (const method of ['GET', 'POST'] as const) {
    const at = (name: string) => rows.find(([n]) => n === `${method} ${name}`)![1];
    const [d, h, g] = [at('direct, saturated'), at('bare hop, saturated'), at('gateway, saturated')];
    const [dr, hr, gr] = [
      at(`direct, ${rate} req/s`),
      at(`bare hop, ${rate} req/s`),
      at(`gateway, ${rate} req/s`),
    ];
    print();
    print(
      `${method} saturated throughput: gateway ${pct(g.rps, d.rps)} of direct, bare hop ${pct(h.rps, d.rps)} of direct`,
    );
    print(
      `  the gateway against the bare hop: ${pct(g.rps, h.rps)} (its own cost beyond any hop: ${pct(h.rps - g.rps, h.rps)})`,
    );
    print(
      `  latency added at ${rate} req/s: gateway p50 +${fmt(gr.p50 - dr.p50)} ms, p99 +${fmt(gr.p99 - dr.p99)} ms;`,
    );
    print(`  bare hop p50 +${fmt(hr.p50 - dr.p50)} ms, p99 +${fmt(hr.p99 - dr.p99)} ms`);
    print(
      `  CPU per call at ${rate} req/s: upstream alone ${us(dr.cpuUs)}; bare hop ${us(hr.cpuUs)} (upstream behind it ${us(hr.upstreamCpuUs)}); ` +
        `gateway ${us(gr.cpuUs)} (upstream behind it ${us(gr.upstreamCpuUs)})`,
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
