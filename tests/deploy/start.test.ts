// `npm start` (scripts/start.mjs) on free ports, its own databases, AMQP prefix and data
// folder: one clear line when something it needs is missing; Ctrl-C stops every
// service; and if the script itself is killed, the services do not live on as orphans.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { topologyNames } from '@esign/platform/messaging';
import { amqpPrefix, deleteAmqpObjects, freePort, infra, uniqueSuffix } from '@esign/testing';
import pg from 'pg';
import { repoRoot } from './support/paths.js';
import { refusesConnections, until } from './support/shutdown.js';

/** The server part of the test Postgres URL: start.mjs creates its databases under it. */
const postgresBase = () => {
  const url = new URL(infra().databaseUrl);
  url.pathname = '';
  return url.toString().replace(/\/$/, '');
};

const run = (env: Record<string, string>) => {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'start.mjs')], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
};

/**
 * The web application's address and the demo user's e-mail and password are printed, and
 * signing in there with them works (the sign-in form as a browser posts it).
 */
const signsInToTheWebApp = async (stdout: string, gateway: number): Promise<void> => {
  assert.match(stdout, new RegExp(`Web app: +http://localhost:${gateway}/app/`));
  const email = /E-mail +(\S+@\S+)/.exec(stdout)?.[1];
  const password = /Password +(\S+)/.exec(stdout)?.[1];
  assert.ok(email && password, `the demo user's e-mail and password are printed: ${stdout}`);
  const web = `http://127.0.0.1:${gateway}/app`;
  const form = await fetch(`${web}/sign-in`);
  const pre = /esign_pre=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')?.[1];
  assert.ok(pre, 'the sign-in page sets its anti-forgery cookie');
  const signedIn = await fetch(`${web}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `esign_pre=${pre}` },
    body: new URLSearchParams({ email, password, _csrf: pre }).toString(),
  });
  assert.equal(signedIn.status, 303, await signedIn.text());
  const session = /esign_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1];
  assert.ok(session, 'signed in: a session cookie');
  const dashboard = await fetch(`${web}/requests`, { headers: { cookie: `esign_session=${session}` } });
  assert.equal(dashboard.status, 200);
  assert.match(await dashboard.text(), /<h1>Requests/);
};

describe('npm start (scripts/start.mjs)', function () {
  this.timeout(300_000);

  it('says in one line that PostgreSQL is not running, and exits 1', async () => {
    const closed = await freePort();
    const started = run({ POSTGRES_URL: `postgres://postgres@127.0.0.1:${closed}` });
    assert.equal(await started.exited, 1);
    const lines = started.stderr().trim().split('\n');
    assert.equal(lines.length, 1, started.stderr());
    assert.match(
      lines[0]!,
      new RegExp(`^PostgreSQL is not reachable at 127\\.0\\.0\\.1:${closed}: start it`),
    );
  });

  it('says in one line that RabbitMQ is not running, and exits 1', async () => {
    const closed = await freePort();
    const started = run({ POSTGRES_URL: postgresBase(), AMQP_URL: `amqp://guest:guest@127.0.0.1:${closed}` });
    assert.equal(await started.exited, 1);
    const lines = started.stderr().trim().split('\n');
    assert.equal(lines.length, 1, started.stderr());
    assert.match(lines[0]!, /^RabbitMQ is not reachable at .*: start it/);
  });

  it('says in one line that a port is taken, and exits 1', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      // The other services on free ports: on a shared machine someone's npm start may hold 8081.
      const started = run({
        POSTGRES_URL: postgresBase(),
        AMQP_URL: infra().amqpUrl,
        AUTH_PORT: String(await freePort()),
        REQUESTS_PORT: String(await freePort()),
        NOTIFIER_PORT: String(await freePort()),
        GATEWAY_PORT: String(port),
      });
      assert.equal(await started.exited, 1);
      assert.equal(
        started.stderr().trim(),
        `Port ${port} (gateway) is in use: is npm start already running? Stop it, or set GATEWAY_PORT.`,
      );
    } finally {
      taken.close();
    }
  });

  describe('with Postgres and RabbitMQ up', () => {
    const prefix = `t_start_${uniqueSuffix()}_`;
    const dataDir = mkdtempSync(join(tmpdir(), 'esign-start-'));
    const children: ChildProcess[] = [];
    const prefixes: string[] = [];

    after(async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      const admin = new pg.Client({ connectionString: infra().databaseUrl });
      await admin.connect();
      try {
        for (const service of ['auth', 'requests', 'notifier']) {
          await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(prefix + service)} WITH (FORCE)`);
        }
      } finally {
        await admin.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
      for (const amqp of prefixes) await deleteAmqpObjects({ exchanges: Object.values(topologyNames(amqp)) });
    });

    const startAll = async () => {
      const ports = {
        GATEWAY_PORT: 0,
        AUTH_PORT: 0,
        REQUESTS_PORT: 0,
        NOTIFIER_PORT: 0,
        GATEWAY_OPS_PORT: 0,
      };
      for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
      const amqp = amqpPrefix('start');
      prefixes.push(amqp);
      const started = run({
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        POSTGRES_URL: postgresBase(),
        AMQP_URL: infra().amqpUrl,
        AMQP_PREFIX: amqp,
        ESIGN_DATA_DIR: dataDir,
        ESIGN_DATABASE_PREFIX: prefix,
        LOG_LEVEL: 'info',
      });
      children.push(started.child);
      // 37 s measured at load 15 while a drill ran, when the demo started the admin CLI seven
      // times; the first start now needs a third of that CPU (4.6 s on a quiet AMD EPYC).
      // A script that stopped, or never printed the banner, says what it printed.
      const began = Date.now();
      const said = () => {
        const load = loadavg().map((l) => l.toFixed(1));
        const output = `--- stdout:\n${started.stdout().slice(-6000)}\n--- stderr:\n${started.stderr().slice(-3000)}`;
        return `\nafter ${Date.now() - began} ms, load average ${load.join(' ')}\n${output}`;
      };
      try {
        await until(
          'the banner',
          () => {
            if (started.stdout().includes('E-signature platform is running.')) return true;
            const { exitCode, signalCode } = started.child;
            if (exitCode !== null || signalCode !== null)
              throw new Error(`npm start exited (${exitCode ?? signalCode}) without the banner`);
            return false;
          },
          180_000,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}${said()}`);
      }
      return { ...started, ports: Object.values(ports) };
    };

    it('npm run migrate creates and migrates every database with the same settings, and exits 0', async () => {
      const childEnv: NodeJS.ProcessEnv = {
        ...process.env,
        POSTGRES_URL: postgresBase(),
        ESIGN_DATA_DIR: dataDir,
        ESIGN_DATABASE_PREFIX: prefix,
        LOG_LEVEL: 'warn',
      };
      delete childEnv.NODE_OPTIONS;
      const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'migrate.mjs')], {
        env: childEnv,
        stdio: 'pipe',
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      assert.equal(await new Promise((resolve) => child.once('exit', resolve)), 0, output);
      for (const service of ['auth', 'requests', 'notifier']) {
        const migrated = new pg.Client({ connectionString: `${postgresBase()}/${prefix}${service}` });
        await migrated.connect();
        try {
          // node-pg-migrate's bookkeeping table exists once migrations have run.
          const { rowCount } = await migrated.query(
            "SELECT 1 FROM pg_tables WHERE tablename = 'pgmigrations'",
          );
          assert.equal(rowCount, 1, service);
        } finally {
          await migrated.end();
        }
      }
    });

    it('starts the four services, prints the gateway URL and readable logs, and stops them all on Ctrl-C', async () => {
      const started = await startAll();
      const [gateway] = started.ports;
      assert.match(started.stdout(), new RegExp(`Gateway: +http://localhost:${gateway}`));
      assert.equal((await fetch(`http://127.0.0.1:${gateway}/healthz`)).status, 200);
      await signsInToTheWebApp(started.stdout(), gateway!);
      // Executed PDFs are sealed with a self-signed certificate made once in the data folder.
      assert.match(
        started.stdout(),
        /Made a self-signed certificate that seals executed PDFs: .*seal-cert\.pem/,
      );
      assert.ok(existsSync(join(dataDir, 'seal', 'seal-key.pem')));
      assert.doesNotMatch(
        readFileSync(join(dataDir, 'logs', 'requests.log'), 'utf8'),
        /no PDF signing certificate/,
      );
      // Pretty on the terminal, raw JSON lines in the log files.
      assert.match(started.stdout(), /^\d\d:\d\d:\d\d\.\d{3} gateway +INFO +listening port=\d+$/m);
      for (const service of ['gateway', 'auth', 'requests', 'notifier']) {
        const log = join(dataDir, 'logs', `${service}.log`);
        assert.ok(existsSync(log));
        assert.doesNotThrow(() => JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!) as unknown);
      }
      started.child.kill('SIGINT');
      assert.equal(await started.exited, 0);
      assert.match(started.stdout(), /All services stopped\.\n$/);
      for (const port of started.ports) assert.ok(await refusesConnections(port), `port ${port} still open`);
      assert.equal((started.stdout().match(/INFO +stopped$/gm) ?? []).length, 4, started.stdout());
    });

    it('leaves no orphan when it is killed outright: each service shuts down gracefully by itself', async () => {
      const started = await startAll();
      started.child.kill('SIGKILL');
      await started.exited;
      for (const port of started.ports) {
        await until(`port ${port} closed`, () => refusesConnections(port), 30_000);
      }
      // A service may take its whole drain (20 s) and then its shutdown steps: on a busy
      // 2-core machine the notifier once needed more than 30 s in all (CI, Node 24).
      for (const service of ['gateway', 'auth', 'requests', 'notifier']) {
        const log = join(dataDir, 'logs', `${service}.log`);
        await until(
          `${service} logged "stopped"`,
          () => readFileSync(log, 'utf8').includes('"msg":"stopped"'),
          90_000,
        );
      }
    });
  });
});
