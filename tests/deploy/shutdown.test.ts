// SIGTERM with a request in flight, for each service as it runs in production: the
// compiled dist/src/main.js (built by `npm test`'s pretest), a process of its own with
// the environment docker-compose.yml gives it, re-pointed at this machine (a fresh
// database, a private AMQP prefix, a local SMTP server, fake upstreams). The request
// must complete after the signal, new connections must be refused, and the process
// must exit 0: what Kubernetes' rolling updates and `docker compose down` rely on.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { topologyNames } from '@esign/platform/messaging';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  freePort,
  infra,
  redisUrl,
  type TestDatabase,
} from '@esign/testing';
import { SMTPServer } from 'smtp-server';
import { parse } from 'yaml';
import { repoRoot } from './support/paths.js';
import { serviceConfig, serviceNames } from './support/service-config.js';
import { fakeUpstream, listen, refusesConnections, send, spawned, start, until } from './support/shutdown.js';

const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string | number> }>;
};

describe('graceful shutdown of each service (compiled, as deployed)', function () {
  this.timeout(90_000);
  const services = serviceNames();
  const cleanups: (() => Promise<void>)[] = [];
  let smtpPort: number;
  const upstream = fakeUpstream();
  let upstreamPort: number;

  before(async () => {
    for (const service of services) {
      const main = join(repoRoot, 'services', service, 'dist', 'src', 'main.js');
      assert.ok(existsSync(main), `${main} is missing: build first (npm test does, or npx tsc -b)`);
    }
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData: (s, _, cb) => s.resume().once('end', () => cb()),
    });
    smtpPort = await listen(smtp.server);
    cleanups.push(() => new Promise((resolve) => smtp.close(() => resolve())));
    upstreamPort = await listen(upstream.server);
    cleanups.push(async () => {
      upstream.server.closeAllConnections();
      await new Promise((resolve) => upstream.server.close(resolve));
    });
  });

  after(async () => {
    for (const child of spawned)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** The service's compose environment, with every compose host replaced by its stand-in here. */
  const environment = async (service: string): Promise<Record<string, string>> => {
    const composed = Object.fromEntries(
      Object.entries(compose.services[service]?.environment ?? {}).map(([k, v]) => [k, String(v)]),
    );
    const config = await serviceConfig(service);
    const env: Record<string, string> = { ...composed, LOG_LEVEL: 'warn', PORT: String(await freePort()) };
    // The gateway's operations port (/readyz, /metrics), off the public one (L12).
    if (env.OPS_PORT !== undefined) env.OPS_PORT = String(await freePort());
    const prefix = amqpPrefix(`shutdown-${service}`);
    env.AMQP_PREFIX = prefix;
    cleanups.push(() =>
      deleteAmqpObjects({ exchanges: Object.values(topologyNames(prefix)) }).catch(() => undefined),
    );
    for (const [key, value] of Object.entries(env)) {
      if (!URL.canParse(value) || !value.includes('://')) continue;
      const host = new URL(value).hostname;
      if (host === 'postgres') {
        const database: TestDatabase = await createTestDatabase(`shutdown_${service}`);
        cleanups.push(() => database.drop());
        env[key] = database.url;
      } else if (host === 'rabbitmq') {
        env[key] = infra().amqpUrl;
      } else if (host === 'redis') {
        env[key] = redisUrl();
      } else if (host === 'mailpit') {
        env[key] = `smtp://127.0.0.1:${smtpPort}`;
      } else if (services.includes(host)) {
        env[key] = `http://127.0.0.1:${upstreamPort}`;
      } else {
        assert.ok(
          ['localhost', '127.0.0.1'].includes(host),
          `${service}.${key}: no stand-in for host ${host}`,
        );
      }
    }
    for (const variable of config.mustSet)
      assert.ok(env[variable.name] !== undefined, `${service}: ${variable.name}`);
    return env;
  };

  for (const service of services) {
    it(`${service}: finishes the request in flight after SIGTERM, refuses new connections, exits 0`, async () => {
      const env = await environment(service);
      const callsUpstream = Object.values(env).some((v) => v === `http://127.0.0.1:${upstreamPort}`);
      const running = await start(service, env);
      const { child, port } = running;
      let signalledAt = 0;

      let response: Promise<{ status: number; body: string; at: number }>;
      let finish: () => Promise<void>;
      if (callsUpstream) {
        // The gateway's /readyz asks its upstreams: hold their answer, so the request is
        // in flight inside the gateway when the signal lands.
        const arrived = upstream.hold();
        const readyPort = env.OPS_PORT === undefined ? port : Number(env.OPS_PORT);
        const sent = send(readyPort, { method: 'GET', path: '/readyz' });
        sent.req.end();
        response = sent.response;
        await arrived;
        finish = () => Promise.resolve(upstream.release());
      } else {
        // A JSON body trickled in: the server has taken the request (100 Continue) and is
        // still reading it when the signal lands.
        const sent = send(port, {
          method: 'POST',
          path: '/healthz',
          headers: {
            'content-type': 'application/json',
            expect: '100-continue',
            'transfer-encoding': 'chunked',
          },
        });
        response = sent.response;
        await new Promise<void>((resolve) => sent.req.once('continue', resolve));
        sent.req.write('{"padding":"');
        finish = async () => {
          for (let i = 0; i < 3; i++) {
            sent.req.write('x'.repeat(1000));
            await new Promise((r) => setTimeout(r, 50));
          }
          sent.req.end('"}');
        };
      }
      let answeredEarly = false;
      void response.then(() => (answeredEarly = signalledAt === 0));

      signalledAt = Date.now();
      child.kill('SIGTERM');
      await until(`${service} stops accepting connections`, () => refusesConnections(port), 10_000);
      await finish();

      const answer = await response;
      assert.equal(answeredEarly, false, 'the request was answered before the signal: it was not in flight');
      assert.ok(answer.at > signalledAt);
      if (callsUpstream) {
        assert.equal(answer.status, 200, `${service}: ${answer.body}`);
      } else {
        // POST /healthz: 405 once the whole body has been read; any problem+json 4xx will do.
        assert.ok(answer.status >= 400 && answer.status < 500, `${service}: ${answer.status} ${answer.body}`);
      }
      assert.doesNotThrow(() => JSON.parse(answer.body) as unknown, 'a complete JSON body');

      const exit = await Promise.race([
        running.exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`${service} still running 25 s after SIGTERM`)), 25_000),
        ),
      ]);
      assert.deepEqual(exit, { code: 0, signal: null }, running.output());
    });
  }
});
