// `npm test`: every workspace's unit and integration tests, in parallel, against a real
// Postgres and RabbitMQ: those named by DATABASE_URL / AMQP_URL, else the local servers
// on their default ports, else containers started here with testcontainers; and Redis
// (REDIS_URL, else the local one, started here when it does not answer).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRedis, LOCAL_REDIS_URL } from './lib/redis.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

const reachable = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, timeout: 1000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

const dockerAvailable = () =>
  process.env.DOCKER_HOST !== undefined ||
  existsSync('/var/run/docker.sock') ||
  existsSync(`${process.env.HOME}/.docker/run/docker.sock`);

const cleanups = [];
const env = { ...process.env };

if (env.DATABASE_URL === undefined) {
  if (await reachable(5432)) env.DATABASE_URL = LOCAL_DATABASE_URL;
  else if (dockerAvailable()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:16-alpine').start();
    env.DATABASE_URL = container.getConnectionUri();
    cleanups.push(() => container.stop());
  } else {
    console.error(
      'No Postgres: set DATABASE_URL, start one on 127.0.0.1:5432, or run Docker for testcontainers.',
    );
    process.exit(1);
  }
}
if (env.AMQP_URL === undefined) {
  if (await reachable(5672)) env.AMQP_URL = LOCAL_AMQP_URL;
  else if (dockerAvailable()) {
    const { RabbitMQContainer } = await import('@testcontainers/rabbitmq');
    const container = await new RabbitMQContainer('rabbitmq:4-management-alpine').start();
    env.AMQP_URL = container.getAmqpUrl();
    cleanups.push(() => container.stop());
  } else {
    console.error(
      'No RabbitMQ: set AMQP_URL, start one on 127.0.0.1:5672, or run Docker for testcontainers.',
    );
    process.exit(1);
  }
}

env.REDIS_URL ??= LOCAL_REDIS_URL;
const noRedis = await ensureRedis(env.REDIS_URL);
if (noRedis !== undefined) {
  console.error(noRedis);
  process.exit(1);
}

// Tests run from TypeScript sources: workspace packages resolve to src/ through the
// "source" export condition, and tsx compiles on the fly.
env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --conditions=source --import=tsx`.trim();

const args = process.argv.slice(2);
const specs = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));
const summaryFile = join(root, 'test-results', 'summary.json');

/**
 * A mocha process that has not exited after this many minutes is hung, not slow (the
 * longest system file takes under a minute on a quiet machine, the first phase a few).
 * The one hang seen: the main thread asleep for good in Atomics.wait on Node 20's
 * off-thread module hooks (tsx registers them with `module.register`), before the file's
 * first test, with no socket open: the known class of deadlock of those hooks
 * (nodejs/node#50948; Node 24 runs tsx's hooks on the main thread instead). mocha's own
 * timeouts cannot fire on a blocked thread, so without a bound the run would hang until
 * CI kills it. TEST_HANG_MINUTES changes the bound.
 */
const HANG_MINUTES = Number(env.TEST_HANG_MINUTES ?? 15);
/** Set by Ctrl-C (or SIGTERM): the running mocha gets it, and nothing runs after it. */
let interrupted = false;

/** Runs mocha once; answers its exit code, or 'hung' after HANG_MINUTES (then killed, with its children). */
const runMochaOnce = (files, jobs) =>
  new Promise((resolve) => {
    const mocha = spawn(
      process.execPath,
      [
        join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
        ...(jobs > 1 ? ['--parallel', '--jobs', String(jobs)] : []),
        // A default a loaded 2-core machine (CI shares it) meets with margin; slower files say
        // their own. Nothing waits on it: tests poll with bounds, not sleep.
        '--timeout',
        '60000',
        '--reporter',
        join(root, 'scripts', 'mocha-reporter.cjs'),
        '--extension',
        'ts',
        // The services' last words when a test fails (the whole-system suites start them).
        '--require',
        join(root, 'scripts', 'mocha-failure-logs.mjs'),
        ...flags,
        ...files,
      ],
      // A process group of its own, so a hung run is killed with the services it started.
      { cwd: root, env, stdio: 'inherit', detached: true },
    );
    const forward = (signal) => () => {
      if (signal !== 'SIGKILL') interrupted = true;
      try {
        process.kill(-mocha.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    let hung = false;
    const watchdog = setTimeout(() => {
      hung = true;
      forward('SIGKILL')();
    }, HANG_MINUTES * 60_000);
    mocha.once('exit', (c, signal) => {
      clearTimeout(watchdog);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(hung ? 'hung' : (c ?? (signal ? 1 : 0)));
    });
  });

/** Ctrl-C ends the whole run once the mocha it reached has exited. */
const runMochaUnlessInterrupted = async (files, jobs) => {
  const code = await runMochaOnce(files, jobs);
  if (interrupted) {
    for (const cleanup of cleanups) await cleanup();
    process.exit(130);
  }
  return code;
};

/** A hung run is run once more, and says so; a second hang fails like a failing test. */
const runMocha = async (files, jobs) => {
  const first = await runMochaUnlessInterrupted(files, jobs);
  if (first !== 'hung') return first;
  console.log(
    `\n${files.join(' ')}: no exit after ${HANG_MINUTES} min (a deadlock, not a slow test: see HANG_MINUTES in scripts/test.mjs); killed, running it once more\n`,
  );
  rmSync(summaryFile, { force: true });
  const second = await runMochaUnlessInterrupted(files, jobs);
  if (second !== 'hung') return second;
  console.log(`\n${files.join(' ')}: hung again; counted as failed\n`);
  rmSync(summaryFile, { force: true });
  return 1;
};

const readSummary = () =>
  existsSync(summaryFile)
    ? JSON.parse(readFileSync(summaryFile, 'utf8'))
    : { passes: 0, failures: 1, pending: 0, failed: [{ title: 'the run left no summary' }] };

let code;
if (specs.length > 0) {
  code = await runMocha(specs, Number(env.TEST_JOBS ?? 3));
} else {
  // Two phases. Unit, integration and deployment tests run three files at a time. The
  // whole-system suites (tests/e2e, tests/browser) each start every service, some of them
  // twice over with proxies: on 2 cores two of them side by side starve each other's
  // timers, and one mocha process running them in turn carried one file's leftovers into
  // the next, so each runs alone, in a mocha process of its own, after the rest.
  // TEST_SYSTEM=0 runs the first phase only (CI's second Node version does so).
  const systemFiles = ['tests/e2e', 'tests/browser'].flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith('.test.ts'))
      .sort()
      .map((name) => `${dir}/${name}`),
  );
  const phases = [
    {
      files: ['libs/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'tests/deploy/**/*.test.ts'],
      jobs: Number(env.TEST_JOBS ?? 3),
    },
    ...(env.TEST_SYSTEM === '0' ? [] : systemFiles.map((file) => ({ files: [file], jobs: 1 }))),
  ];
  const total = { passes: 0, failures: 0, pending: 0, failed: [] };
  code = 0;
  for (const phase of phases) {
    rmSync(summaryFile, { force: true });
    const phaseCode = await runMocha(phase.files, phase.jobs);
    const summary = readSummary();
    for (const key of ['passes', 'failures', 'pending']) total[key] += summary[key] ?? 0;
    total.failed.push(...(summary.failed ?? []));
    if (phaseCode !== 0) code = phaseCode;
  }
  writeFileSync(summaryFile, JSON.stringify(total) + '\n');
  process.on('exit', () =>
    process.stdout.write(
      `tests: ${total.passes} passed, ${total.failures} failed${total.pending ? `, ${total.pending} skipped` : ''}\n`,
    ),
  );
}
for (const cleanup of cleanups) await cleanup();
process.exit(code);
