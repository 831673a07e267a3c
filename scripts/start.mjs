// `npm start`: the whole system on this machine. Checks Postgres, RabbitMQ and the
// ports, creates the databases, starts the four services as separate processes (each
// migrates its own database on start-up), waits until they are healthy and prints
// where to go. Ctrl-C stops them gracefully, the gateway first. The services also stop
// by themselves if this script dies (scripts/lib/exit-with-parent.mjs).
//
// Settings (environment): POSTGRES_URL, AMQP_URL, REDIS_URL, PUBLIC_BASE_URL, LOG_LEVEL,
// GATEWAY_PORT/AUTH_PORT/REQUESTS_PORT/NOTIFIER_PORT, LOG_FORMAT=json (raw log lines),
// ESIGN_DATA_DIR (default .data), ESIGN_DATABASE_PREFIX (default esign_).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { pathToFileURL } from 'node:url';
import { localSecrets, localSettings, root, serviceEnvironment } from './lib/local-env.mjs';
import { ensureRedis } from './lib/redis.mjs';

const env = process.env;
const settings = localSettings(env);
const { postgresBase, amqpUrl, dataDir, publicBaseUrl, databaseUrl } = settings;
const json = env.LOG_FORMAT === 'json';
const color = process.stdout.isTTY && env.NO_COLOR === undefined;
const colours = { auth: 36, requests: 35, notifier: 33, gateway: 32 };
const services = settings.services.map((s) => ({ ...s, colour: colours[s.name] ?? 34 }));

/** One line on stderr, exit 1: what a developer reads when something is not there. */
const fail = (message) => {
  console.error(message);
  process.exit(1);
};

const reachable = (url, defaultPort) =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort), timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

const portFree = (port) =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });

if (!(await reachable(postgresBase, 5432))) {
  fail(
    `PostgreSQL is not reachable at ${new URL(postgresBase).host}: start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set POSTGRES_URL.`,
  );
}
if (!(await reachable(amqpUrl, 5672))) {
  fail(
    `RabbitMQ is not reachable at ${new URL(amqpUrl).host}: start it (rabbitmq-server -detached) or set AMQP_URL.`,
  );
}
// The gateway's rate limits live in Redis: the local one is started when it is not running.
const noRedis = await ensureRedis(settings.redisUrl);
if (noRedis !== undefined) fail(noRedis);
for (const service of services) {
  if (!Number.isInteger(service.port) || service.port < 1 || service.port > 65535) {
    fail(`${service.name.toUpperCase()}_PORT must be a port number (1 to 65535).`);
  }
  if (!(await portFree(service.port))) {
    fail(
      `Port ${service.port} (${service.name}) is in use: is npm start already running? Stop it, or set ${service.name.toUpperCase()}_PORT.`,
    );
  }
}

mkdirSync(join(dataDir, 'logs'), { recursive: true });
const secrets = localSecrets(dataDir);

// Only the two modules it needs, not the platform's entries: this script stays up as long
// as the system does, and slonik and the HTTP stack would keep about 30 MB more in it.
const platform = (file) => import(pathToFileURL(join(root, 'libs/platform/dist/src', file)).href);
const { ensureLocalSealCertificate } = await platform('seal-certificate.js');
const { ensureDatabase } = await platform('ensure-database.js');
// Executed PDFs are sealed (PAdES) with a certificate: without one set, a self-signed one
// is made once in <data>/seal and kept. Readers show its signature as valid, its issuer as untrusted.
if (!env.PDF_SIGNING_CERT_FILE && !env.PDF_SIGNING_P12_FILE) {
  const seal = ensureLocalSealCertificate(join(dataDir, 'seal'));
  secrets.seal = seal.files;
  console.log(
    `${seal.created ? 'Made a' : 'Using the'} self-signed certificate that seals executed PDFs: ${seal.files.PDF_SIGNING_CERT_FILE} (local use only; set PDF_SIGNING_CERT_FILE/PDF_SIGNING_KEY_FILE or PDF_SIGNING_P12_FILE for a real one).`,
  );
}
for (const service of services.filter((s) => s.db)) {
  try {
    await ensureDatabase(databaseUrl(service.name));
  } catch (error) {
    fail(
      `Cannot create the database ${settings.databaseName(service.name)} under ${postgresBase}: ${error.message}`,
    );
  }
}

// Readable logs: each service's JSON lines go verbatim to <data>/logs/<service>.log and,
// unless LOG_FORMAT=json, to the terminal as "time service LEVEL message key=value".
const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const SEVERITY = { trace: 0, debug: 0, info: 0, warn: 1, error: 2, fatal: 2 };
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const width = Math.max(...services.map((s) => s.name.length));
const pretty = (service, line) => {
  const label = paint(service.colour, service.name.padEnd(width));
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return `${label} ${line}`;
  }
  if (entry === null || typeof entry !== 'object') return `${label} ${line}`;
  const { level, time, msg, err, service: _service, pid: _pid, hostname: _hostname, ...rest } = entry;
  const name = typeof level === 'number' ? (LEVELS[level] ?? String(level)) : String(level ?? '');
  const levelText = paint([2, 33, 31][SEVERITY[name] ?? 0], name.toUpperCase().padEnd(5));
  const clock = typeof time === 'string' ? time.slice(11, 23) : new Date().toISOString().slice(11, 23);
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const error = err ? `\n${err.stack ?? err.message ?? JSON.stringify(err)}` : '';
  return `${paint(2, clock)} ${label} ${levelText} ${msg ?? ''}${fields ? ` ${paint(2, fields)}` : ''}${error}`;
};

/** Calls `onLine` for each line appended to `file`, until this script exits. */
const followers = [];
const follow = (file, onLine) => {
  const fd = openSync(file, 'r');
  const buffer = Buffer.alloc(64 * 1024);
  // A read may end inside a multi-byte character; the decoder keeps it for the next one.
  const decoder = new StringDecoder('utf8');
  let position = 0;
  let partial = '';
  const poll = () => {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      position += read;
      const lines = (partial + decoder.write(buffer.subarray(0, read))).split('\n');
      partial = lines.pop();
      for (const line of lines) onLine(line);
    }
  };
  const timer = setInterval(poll, 100);
  followers.push(() => (clearInterval(timer), poll()));
};
const flushLogs = () => followers.forEach((f) => f());

const children = new Map();
let stopping = false;

const stop = (name) =>
  new Promise((resolve) => {
    const child = children.get(name);
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return resolve();
    // Longer than the services' own 20 s drain; a service still running after it is stuck.
    const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => (clearTimeout(force), resolve()));
    child.kill('SIGTERM');
  });

const stopAll = async (code) => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping (Ctrl-C again to kill)…');
  // The gateway first, so no new work reaches the others while they drain.
  await stop('gateway');
  await Promise.all(services.filter((s) => s.name !== 'gateway').map((s) => stop(s.name)));
  flushLogs();
  console.log('All services stopped.');
  process.exit(code);
};

for (const service of services) {
  const childEnv = serviceEnvironment(settings, secrets, service.name, env);
  // The service writes its log file itself, so it can still log (and drain, and exit 0)
  // if this script is gone; this script follows the file to show it.
  const logFile = join(dataDir, 'logs', `${service.name}.log`);
  const logFd = openSync(logFile, 'w');
  // Own process group (Ctrl-C reaches only this script, which stops them in order) and
  // an IPC channel whose closing tells them this script is gone.
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(join(root, 'scripts/lib/exit-with-parent.mjs')).href,
      join(root, `services/${service.name}/dist/src/main.js`),
    ],
    { cwd: root, env: childEnv, stdio: ['ignore', logFd, logFd, 'ipc'], detached: true },
  );
  closeSync(logFd);
  children.set(service.name, child);
  follow(logFile, (line) =>
    process.stdout.write((json ? `${service.name} ${line}` : pretty(service, line)) + '\n'),
  );
  child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${service.name} exited (${code ?? signal}); stopping the rest.`);
      void stopAll(1);
    }
  });
}

process.on('SIGINT', () => (stopping ? killAll() : void stopAll(0)));
process.on('SIGTERM', () => void stopAll(0));
process.on('SIGHUP', () => void stopAll(0));
const killAll = () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(130);
};

const healthy = async (port) => {
  for (let i = 0; i < 300 && !stopping; i++) {
    try {
      // Bounded: a port that takes the connection and never answers is not healthy.
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5000) });
      if (response.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
};
const started = await Promise.all(services.map(async (s) => [s, await healthy(s.port)]));
for (const [service, ok] of started) {
  if (!ok && !stopping) {
    console.error(
      `${service.name} did not become healthy on port ${service.port} within 60 s; its log: ${join(dataDir, 'logs', `${service.name}.log`)}`,
    );
    await stopAll(1);
  }
}

let demo = '';
const demoScript = join(root, 'scripts', 'demo.mjs');
if (existsSync(demoScript)) {
  const { ensureDemo } = await import(pathToFileURL(demoScript).href);
  demo = await ensureDemo({ root, dataDir, gatewayUrl: publicBaseUrl, databaseUrl: databaseUrl('auth') });
}

console.log(`
  E-signature platform is running.
  Gateway:   ${publicBaseUrl}   (the only address clients need)
  Web app:   ${publicBaseUrl.replace(/\/+$/, '')}/app/   (sign in with an account's e-mail and password)
  Services:  ${services
    .filter((s) => s.name !== 'gateway')
    .map((s) => `${s.name} :${s.port}`)
    .join(', ')} on 127.0.0.1 (health: /healthz, /readyz, /metrics)
  Gateway operations: http://127.0.0.1:${settings.gatewayOpsPort} (/readyz, /metrics)
  Logs:      ${join(dataDir, 'logs')}/<service>.log (JSON lines)
  Messages:  e-mail and SMS without SMTP/Twilio settings are written to ${join(dataDir, 'outbox')}
${demo}
  Ctrl-C stops everything.
`);
