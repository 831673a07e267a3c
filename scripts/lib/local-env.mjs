// The local installation `npm start` and `npm run migrate` share: where Postgres and
// RabbitMQ are, the ports, the data folder, the generated local secrets, and the
// environment each service gets. Both must agree: a service's migrate.js decodes the
// same configuration as its main.js.
import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Reads the settings from the environment (see README, "Quick start"). */
export const localSettings = (env = process.env) => {
  const services = [
    { name: 'auth', port: Number(env.AUTH_PORT ?? 8081), db: true },
    { name: 'requests', port: Number(env.REQUESTS_PORT ?? 8082), db: true },
    { name: 'notifier', port: Number(env.NOTIFIER_PORT ?? 8083), db: true },
    { name: 'gateway', port: Number(env.GATEWAY_PORT ?? 8080), db: false },
  ];
  // The gateway's operations port: /readyz and /metrics, off its public port (L12).
  const gatewayOpsPort = Number(env.GATEWAY_OPS_PORT ?? 9080);
  const port = (name) => services.find((s) => s.name === name).port;
  const postgresBase = (env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  const databasePrefix = env.ESIGN_DATABASE_PREFIX ?? 'esign_';
  const publicBaseUrl = env.PUBLIC_BASE_URL ?? `http://localhost:${port('gateway')}`;
  return {
    services,
    postgresBase,
    amqpUrl: env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    dataDir: resolve(env.ESIGN_DATA_DIR || join(root, '.data')),
    publicBaseUrl,
    tokenIssuer: env.TOKEN_ISSUER ?? publicBaseUrl,
    logLevel: env.LOG_LEVEL ?? 'info',
    databaseName: (service) => `${databasePrefix}${service}`,
    databaseUrl: (service) => `${postgresBase}/${databasePrefix}${service}`,
    port,
    gatewayOpsPort,
  };
};

/**
 * Local secrets are made once and kept in the data folder (git-ignored, mode 600), so
 * tokens and Execution URLs survive a restart. Production takes them from its secret store.
 */
export const localSecrets = (dataDir) => {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'local-secrets.json');
  const secrets = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  // The gateway's principal key (Ed25519, a private JWK): only the gateway gets it, the
  // services its public half (ADR 1310). The former shared secret is dropped.
  delete secrets.internal;
  secrets.principalSigningKey ??= JSON.stringify(
    generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }),
  );
  // The gateway's credential for auth's introspection, held by those two only.
  secrets.introspection ??= randomBytes(32).toString('base64url');
  secrets.urlSigning ??= randomBytes(32).toString('base64url');
  // Seals auth's signing keys at rest; `npm run admin` reads the same file.
  secrets.keyEncryption ??= randomBytes(32).toString('base64url');
  writeFileSync(file, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  return secrets;
};

const publicKeyOf = (privateJwk) =>
  JSON.stringify(createPublicKey({ key: JSON.parse(privateJwk), format: 'jwk' }).export({ format: 'jwk' }));

/** The environment of one service's processes (main.js and migrate.js), compiled, plain node. */
export const serviceEnvironment = (settings, secrets, service, env = process.env) => {
  const entry = settings.services.find((s) => s.name === service);
  const result = {
    ...env,
    AMQP_URL: settings.amqpUrl,
    PUBLIC_BASE_URL: settings.publicBaseUrl,
    TOKEN_ISSUER: settings.tokenIssuer,
    URL_SIGNING_KEYS: `k1:${secrets.urlSigning}`,
    KEY_ENCRYPTION_KEYS: `k1:${secrets.keyEncryption}`,
    NOTIFIER_OUTBOX_DIR: join(settings.dataDir, 'outbox'),
    AUTH_URL: `http://127.0.0.1:${settings.port('auth')}`,
    REQUESTS_URL: `http://127.0.0.1:${settings.port('requests')}`,
    NOTIFIER_URL: `http://127.0.0.1:${settings.port('notifier')}`,
    LOG_LEVEL: settings.logLevel,
    PORT: String(entry.port),
    ...(entry.db ? { DATABASE_URL: settings.databaseUrl(service) } : {}),
    // Only the gateway is meant to be reached: the others listen on loopback alone.
    LISTEN_HOST: service === 'gateway' ? (env.LISTEN_HOST ?? '0.0.0.0') : '127.0.0.1',
    ...(service === 'gateway'
      ? { PRINCIPAL_SIGNING_KEY: secrets.principalSigningKey }
      : { PRINCIPAL_PUBLIC_KEY: publicKeyOf(secrets.principalSigningKey) }),
    ...(service === 'gateway' || service === 'auth' ? { INTROSPECTION_SECRET: secrets.introspection } : {}),
    // The local self-signed seal of executed PDFs (start.mjs makes it), unless one is set.
    ...(service === 'requests' &&
    secrets.seal !== undefined &&
    !env.PDF_SIGNING_CERT_FILE &&
    !env.PDF_SIGNING_P12_FILE
      ? secrets.seal
      : {}),
    // One gateway locally: it keeps the whole limit for itself should Redis go away.
    ...(service === 'gateway'
      ? { REDIS_URL: settings.redisUrl, GATEWAY_REPLICAS: '1', OPS_PORT: String(settings.gatewayOpsPort) }
      : {}),
    // The notifier's daily message quotas live in the same Redis (ADR 1320).
    ...(service === 'notifier' ? { REDIS_URL: settings.redisUrl, NOTIFIER_REPLICAS: '1' } : {}),
    // Bulk sends draw on the gateway's money-costing buckets (ADR 2201).
    ...(service === 'requests' ? { REDIS_URL: settings.redisUrl, REQUESTS_REPLICAS: '1' } : {}),
  };
  // No tsx and no "source" condition: the services run as built, as in production.
  return { ...result, ...SERVICE_PROCESS_ENV };
};

/**
 * The process settings every service runs with, as the image's ENV sets them: V8's young
 * generation (ADR 2600) and glibc's malloc arenas (ADR 2700).
 */
export const SERVICE_PROCESS_ENV = { NODE_OPTIONS: '--max-semi-space-size=8', MALLOC_ARENA_MAX: '2' };
