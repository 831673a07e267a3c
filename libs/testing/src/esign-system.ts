import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLocalSealCertificate } from '@esign/platform';
import { migrate } from '@esign/platform/database';
import { amqpPrefix, createTestDatabase, infra, redisUrl, type TestDatabase } from './infra.js';
import { startSmtpServer } from './smtp-server.js';
import { freePort, repoRoot, startService, type RunningService, type ServiceName } from './system.js';
import { signWithAuthKey } from './issuer-key.js';
import { adminCli, provisionTenant } from './tenants.js';
import { principalKeys as makePrincipalKeys } from './principal-keys.js';
import { DATA_OWNERS, type DataOwner, type EsignSystem, type SystemOptions } from './esign-system-types.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';
import { startTcpProxy } from './tcp-proxy.js';
import { startTwilioApi } from './twilio-api.js';
import { deleteSystemAmqpObjects } from './system-amqp.js';
export type { Tenant } from './tenants.js';
export { deleteSystemAmqpObjects } from './system-amqp.js';
export type { EsignSystem, SystemOptions } from './esign-system-types.js';

const secret = () => randomBytes(32).toString('base64url');

const readHwmKb = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
};

/** A Postgres URL for `database` that goes through `port` on the loopback (the proxy). */
const throughPort = (databaseUrl: string, port: number): string => {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
};

/**
 * The whole product the way `npm start` runs it: auth, requests, notifier and the
 * gateway as four built processes on free ports, each data owner on a fresh database of
 * its own, one AMQP prefix for all, an SMTP server and a Twilio API stand-in started
 * here, and auth's admin CLI to provision tenants. Start one per test file.
 */
export const startEsignSystem = async (options: SystemOptions): Promise<EsignSystem> => {
  const { databaseUrl, amqpUrl } = infra();
  const prefix = amqpPrefix(options.label);
  const cleanups: Array<() => Promise<unknown>> = [];
  const replicas = Math.max(1, options.replicas ?? 1);
  /** `${name}#${index}` → the replica's process. */
  const running = new Map<string, RunningService>();
  const replicaKey = (name: ServiceName, index: number) => `${name}#${index}`;
  const peaks = new Map<ServiceName, number>();
  const samplePeak = (service: RunningService | undefined) => {
    if (service === undefined) return;
    const kb = readHwmKb(service.process.pid);
    if (kb !== undefined) peaks.set(service.name, Math.max(peaks.get(service.name) ?? 0, kb));
  };
  const stopReplica = async (name: ServiceName, index: number, signal: NodeJS.Signals = 'SIGTERM') => {
    const service = running.get(replicaKey(name, index));
    if (service === undefined) return;
    samplePeak(service);
    const forced = setTimeout(() => void service.stop('SIGKILL'), 25_000);
    try {
      await service.stop(signal);
    } finally {
      clearTimeout(forced);
    }
  };
  const stopService = (name: ServiceName, signal: NodeJS.Signals = 'SIGTERM') =>
    Promise.all(Array.from({ length: replicas }, (_, i) => stopReplica(name, i, signal)));

  const stop = async () => {
    const errors: unknown[] = [];
    const attempt = async (step: () => Promise<unknown>) => {
      try {
        await step();
      } catch (error) {
        errors.push(error);
      }
    };
    // The gateway first, as `npm start` does, so nothing new reaches the others.
    await attempt(() => stopService('gateway'));
    await Promise.all(DATA_OWNERS.map((name) => attempt(() => stopService(name))));
    for (const cleanup of cleanups.reverse()) await attempt(cleanup);
    if (errors.length > 0) throw new AggregateError(errors, 'the system did not stop cleanly');
  };

  try {
    const databases = {} as Record<DataOwner, TestDatabase>;
    for (const name of DATA_OWNERS) {
      databases[name] = await createTestDatabase(`${options.label}_${name}`);
      const database = databases[name];
      cleanups.push(() => database.drop());
      if (options.migrateFirst === true)
        await migrate(database.url, join(repoRoot, 'services', name, 'migrations'));
    }
    cleanups.push(() => deleteSystemAmqpObjects(prefix));

    let proxies: EsignSystem['proxies'];
    if (options.proxies === true) {
      const postgres = await startTcpProxy(Number(new URL(databaseUrl).port || 5432));
      const amqp = await startTcpProxy(Number(new URL(amqpUrl).port || 5672));
      cleanups.push(
        () => postgres.close(),
        () => amqp.close(),
      );
      proxies = { postgres, amqp };
    }
    const serviceDatabaseUrl = (name: DataOwner) =>
      proxies === undefined ? databases[name].url : throughPort(databases[name].url, proxies.postgres.port);
    const serviceAmqpUrl = (() => {
      if (proxies === undefined) return amqpUrl;
      const url = new URL(amqpUrl);
      url.hostname = '127.0.0.1';
      url.port = String(proxies.amqp.port);
      return url.toString();
    })();

    const smtp = await startSmtpServer();
    const twilio = await startTwilioApi();
    cleanups.push(
      () => smtp.close(),
      () => twilio.close(),
    );
    const outboxDir = mkdtempSync(join(tmpdir(), 'esign-outbox-'));
    // A container's service runs as uid 1000 and writes here through a mount.
    if (options.image !== undefined) chmodSync(outboxDir, 0o777);
    cleanups.push(() => Promise.resolve(rmSync(outboxDir, { recursive: true, force: true })));
    // The certificate that seals executed PDFs: self-signed, this system's own.
    const sealDir = mkdtempSync(join(tmpdir(), 'esign-seal-'));
    cleanups.push(() => Promise.resolve(rmSync(sealDir, { recursive: true, force: true })));
    const seal = ensureLocalSealCertificate(sealDir, 'esign test system seal').files;
    // From an image, the service (uid 1000) reads the files through their mounts: this
    // throw-away test key may be readable by all.
    if (options.image !== undefined) chmodSync(seal.PDF_SIGNING_KEY_FILE, 0o644);

    // Each service's one address: its only process, or the proxy in front of its replicas.
    const ports = {} as Record<ServiceName, number>;
    const replicaPorts = {} as Record<ServiceName, number[]>;
    const balancers = new Map<ServiceName, RoundRobinProxy>();
    for (const name of ['gateway', ...DATA_OWNERS] as const) {
      replicaPorts[name] = [];
      for (let i = 0; i < replicas; i++) replicaPorts[name].push(await freePort());
      if (replicas === 1) ports[name] = replicaPorts[name][0]!;
      else {
        const balancer = await startRoundRobinProxy(replicaPorts[name]);
        cleanups.push(() => balancer.close());
        balancers.set(name, balancer);
        ports[name] = balancer.port;
      }
    }
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    // Only the gateway holds the private key; the services get the public one (ADR 1310).
    const principalKeys = makePrincipalKeys();
    const keyEncryptionKeys = `k1:${secret()}`;
    const tokenIssuer = gatewayUrl;

    const shared: Record<string, string> = {
      AMQP_URL: serviceAmqpUrl,
      AMQP_PREFIX: prefix,
      PUBLIC_BASE_URL: gatewayUrl,
      TOKEN_ISSUER: tokenIssuer,
      PRINCIPAL_PUBLIC_KEY: principalKeys.publicKeyEnv,
      INTROSPECTION_SECRET: secret(),
      URL_SIGNING_KEYS: `k1:${secret()}`,
      KEY_ENCRYPTION_KEYS: keyEncryptionKeys,
      AUTH_URL: `http://127.0.0.1:${ports.auth}`,
      REQUESTS_URL: `http://127.0.0.1:${ports.requests}`,
      NOTIFIER_URL: `http://127.0.0.1:${ports.notifier}`,
      SMTP_URL: smtp.url,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_BASE_URL: twilio.baseUrl,
      // Twilio's reports reach the notifier through the gateway, as in production (ADR 3880).
      TWILIO_STATUS_CALLBACK_URL: `${gatewayUrl}/callbacks/twilio/sms-status`,
      NOTIFIER_OUTBOX_DIR: outboxDir,
      // Buckets of this system's own in the shared Redis, should a test turn limits on.
      REDIS_URL: redisUrl(),
      RATE_LIMIT_KEY_PREFIX: `${prefix}:rate:`,
      NOTIFIER_QUOTA_KEY_PREFIX: `${prefix}:quota:`,
      // Tests drive many calls from one token: the limits have tests of their own.
      RATE_LIMIT_TOKEN: 'off',
      RATE_LIMIT_SITE: 'off',
      RATE_LIMIT_COSTLY: 'off',
      RATE_LIMIT_COSTLY_TEST: 'off',
      RATE_LIMIT_ANONYMOUS: 'off',
      // Drills and benches send thousands of messages, some to one address: the daily
      // message quotas have tests of their own (ADR 1320), and a test may turn them on.
      NOTIFIER_SITE_DAILY_EMAILS: '0',
      NOTIFIER_SITE_DAILY_SMS: '0',
      NOTIFIER_RECIPIENT_DAILY_EMAILS: '0',
      NOTIFIER_RECIPIENT_DAILY_SMS: '0',
    };
    const envOf = (name: ServiceName): Record<string, string> => ({
      ...shared,
      ...(name === 'gateway'
        ? { PRINCIPAL_SIGNING_KEY: principalKeys.signingKeyEnv }
        : { DATABASE_URL: serviceDatabaseUrl(name) }),
      ...(name === 'requests' ? seal : {}),
      ...options.env?.[name],
    });
    const startReplica = async (name: ServiceName, index: number) => {
      // The gateway's operations port (/readyz, /metrics): any free one, chosen at bind time,
      // so replicas never race for a number picked in advance.
      const env = name === 'gateway' ? { OPS_PORT: '0', ...envOf(name) } : envOf(name);
      const service = await startService(name, env, {
        port: replicaPorts[name][index]!,
        timeoutMs: options.startTimeoutMs ?? 60_000,
        ...(options.nodeArgs?.[name] === undefined ? {} : { nodeArgs: options.nodeArgs[name] }),
        ...(options.image === undefined ? {} : { image: options.image }),
      });
      running.set(replicaKey(name, index), service);
      return service;
    };
    // The first replica alone first (it migrates), then the others.
    const start = async (name: ServiceName) => {
      const first = await startReplica(name, 0);
      await Promise.all(Array.from({ length: replicas - 1 }, (_, i) => startReplica(name, i + 1)));
      return first;
    };

    // Auth first: the admin CLI and the gateway's JWKS need its keys. Then the others together.
    await start('auth');
    await Promise.all([start('requests'), start('notifier')]);
    await start('gateway');

    const admin = adminCli({
      DATABASE_URL: databases.auth.url,
      KEY_ENCRYPTION_KEYS: keyEncryptionKeys,
      TOKEN_ISSUER: tokenIssuer,
    });
    const createTenant = (name: string) => provisionTenant(admin, name);

    const signAsIssuer = (claims: Record<string, unknown>) =>
      signWithAuthKey(databases.auth.url, keyEncryptionKeys, claims);

    return {
      gatewayUrl,
      get services() {
        const first = (['gateway', ...DATA_OWNERS] as const).flatMap((name) => {
          const service = running.get(replicaKey(name, 0));
          return service === undefined ? [] : [[name, service] as const];
        });
        return Object.fromEntries(first) as Record<ServiceName, RunningService>;
      },
      smtp,
      twilio,
      databases,
      amqpPrefix: prefix,
      proxies,
      principalKeys,
      admin,
      createTenant,
      signAsIssuer,
      restart: async (name, signal = 'SIGTERM') => {
        await stopService(name, signal);
        return start(name);
      },
      replicasOf: (name) =>
        Array.from({ length: replicas }, (_, i) => running.get(replicaKey(name, i))).filter(
          (service): service is RunningService => service !== undefined,
        ),
      restartReplica: async (name, index, signal = 'SIGTERM') => {
        const balancer = balancers.get(name);
        const port = replicaPorts[name][index]!;
        balancer?.remove(port);
        await stopReplica(name, index, signal);
        const service = await startReplica(name, index);
        balancer?.add(port);
        return service;
      },
      peakRssKb: () => {
        for (const service of running.values()) samplePeak(service);
        return Object.fromEntries(peaks) as Record<ServiceName, number>;
      },
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
};
