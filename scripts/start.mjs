// `npm start`: the whole system on this machine. Checks Postgres and RabbitMQ, creates
// the databases, starts the four services as separate processes (each migrates its own
// database on start-up), waits until they are healthy and prints where to go.
// Ctrl-C stops them all gracefully.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const postgresBase = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? 'http://localhost:8080';

const reachable = (url, defaultPort) =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort), timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

if (!(await reachable(postgresBase, 5432))) {
  console.error(
    `PostgreSQL is not reachable at ${new URL(postgresBase).host}: start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set POSTGRES_URL.`,
  );
  process.exit(1);
}
if (!(await reachable(amqpUrl, 5672))) {
  console.error(
    `RabbitMQ is not reachable at ${new URL(amqpUrl).host}: start it (rabbitmq-server -detached) or set AMQP_URL.`,
  );
  process.exit(1);
}

// Local secrets are made once and kept in .data/ (git-ignored), so tokens and
// Execution URLs survive a restart. Production takes them from its secret store.
const dataDir = join(root, '.data');
mkdirSync(dataDir, { recursive: true });
const secretsFile = join(dataDir, 'local-secrets.json');
const secrets = existsSync(secretsFile) ? JSON.parse(readFileSync(secretsFile, 'utf8')) : {};
secrets.internal ??= randomBytes(32).toString('base64url');
secrets.urlSigning ??= randomBytes(32).toString('base64url');
// Seals auth's signing keys at rest; `npm run admin` reads the same file.
secrets.keyEncryption ??= randomBytes(32).toString('base64url');
writeFileSync(secretsFile, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });

const { ensureDatabase } = await import(join(root, 'libs/platform/dist/src/index.js'));
const databaseUrl = (service) => `${postgresBase.replace(/\/$/, '')}/esign_${service}`;

const shared = {
  AMQP_URL: amqpUrl,
  PUBLIC_BASE_URL: publicBaseUrl,
  INTERNAL_TOKEN_SECRET: secrets.internal,
  URL_SIGNING_KEYS: `k1:${secrets.urlSigning}`,
  KEY_ENCRYPTION_KEYS: `k1:${secrets.keyEncryption}`,
  NOTIFIER_OUTBOX_DIR: join(dataDir, 'outbox'),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
};
const services = [
  { name: 'auth', port: 8081, db: true },
  { name: 'requests', port: 8082, db: true },
  { name: 'notifier', port: 8083, db: true },
  { name: 'gateway', port: 8080, db: false },
];
for (const service of services.filter((s) => s.db)) await ensureDatabase(databaseUrl(service.name));

const children = new Map();
let stopping = false;

const stopAll = async (code) => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  console.log('All services stopped.');
  process.exit(code);
};

for (const service of services) {
  const env = {
    ...process.env,
    ...shared,
    PORT: String(service.port),
    ...(service.db ? { DATABASE_URL: databaseUrl(service.name) } : {}),
  };
  delete env.NODE_OPTIONS;
  // Own process group: Ctrl-C reaches this script, which stops the services in order.
  const child = spawn(process.execPath, [join(root, `services/${service.name}/dist/src/main.js`)], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  children.set(service.name, child);
  child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${service.name} exited (${code ?? signal}); stopping the rest.`);
      void stopAll(1);
    }
  });
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

const healthy = async (port) => {
  for (let i = 0; i < 150; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
};
for (const service of services) {
  if (!(await healthy(service.port))) {
    console.error(`${service.name} did not become healthy on port ${service.port}.`);
    await stopAll(1);
  }
}

let demo = '';
const demoScript = join(root, 'scripts', 'demo.mjs');
if (existsSync(demoScript)) {
  const { ensureDemo } = await import(demoScript);
  demo = await ensureDemo({ root, dataDir, gatewayUrl: publicBaseUrl, databaseUrl: databaseUrl('auth') });
}

console.log(`
  E-signature platform is running.
  Gateway:   ${publicBaseUrl}   (the only address clients need)
  Services:  auth :8081, requests :8082, notifier :8083 (health: /healthz, /readyz, /metrics)
  Messages:  e-mail and SMS without SMTP/Twilio settings are written to ${shared.NOTIFIER_OUTBOX_DIR}
${demo}
  Ctrl-C stops everything.
`);
