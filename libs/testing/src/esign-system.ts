import { spawn } from 'node:child_process';
import { createDecipheriv, createPrivateKey, hkdfSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { topologyNames } from '@esign/platform';
import { amqpPrefix, createTestDatabase, deleteAmqpObjects, infra, type TestDatabase } from './infra.js';
import { startSmtpServer, type SmtpDouble } from './smtp-server.js';
import { freePort, repoRoot, startService, type RunningService, type ServiceName } from './system.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { startTwilioApi, type TwilioApiDouble } from './twilio-api.js';

/** The services that own a database, in the order `npm start` starts them. */
const DATA_OWNERS = ['auth', 'requests', 'notifier'] as const;
type DataOwner = (typeof DATA_OWNERS)[number];

/**
 * Every queue the services declare, so a test run leaves nothing on the shared broker.
 * Deleting a queue that does not exist is not an error, so the list may be generous.
 */
const CONSUMERS = ['notifier', 'notifier-webhooks', 'requests.notification-outcomes'];
const MAX_RETRY_STEPS = 20;

export interface SystemOptions {
  /** Names the databases and the AMQP prefix, for whoever finds leftovers. */
  readonly label: string;
  /**
   * Puts a TCP proxy the test controls between every service and Postgres, and another
   * between the services and RabbitMQ, so a drill can cut them without touching the
   * machine's shared servers.
   */
  readonly proxies?: boolean;
  /** Extra environment per service (wins over the harness's). */
  readonly env?: Partial<Record<ServiceName, Record<string, string>>>;
  /** How long a service may take to answer /healthz (migrations run at start-up). */
  readonly startTimeoutMs?: number;
  /** Node options per service, e.g. `--cpu-prof` for a benchmark. */
  readonly nodeArgs?: Partial<Record<ServiceName, readonly string[]>>;
}

export interface Tenant {
  readonly accountId: string;
  readonly site: { readonly id: number; readonly name: string };
  readonly user: { readonly id: string; readonly email: string };
  readonly appId: string;
  readonly token: { readonly id: string; readonly accessToken: string };
}

export interface EsignSystem {
  /** The one address a client uses. */
  readonly gatewayUrl: string;
  readonly services: Readonly<Record<ServiceName, RunningService>>;
  readonly smtp: SmtpDouble;
  readonly twilio: TwilioApiDouble;
  readonly databases: Readonly<Record<DataOwner, TestDatabase>>;
  readonly amqpPrefix: string;
  /** Present when started with `proxies: true`. */
  readonly proxies: { readonly postgres: TcpProxy; readonly amqp: TcpProxy } | undefined;
  /** Secret the gateway signs principals with (for calling a service directly). */
  readonly internalSecret: string;
  /** Runs auth's admin CLI (the built one) against auth's database; answers its JSON. */
  admin(...args: string[]): Promise<Record<string, unknown>>;
  /** An account with one site, one member user, a Developer App and an access token. */
  createTenant(name: string): Promise<Tenant>;
  /**
   * Signs a JWT with auth's current signing key, opened from auth's database the way auth
   * does: lets a test make a token that differs from a real one in one claim only.
   */
  signAsIssuer(claims: Record<string, unknown>): Promise<string>;
  /** Stops a service with `signal` (SIGKILL for a crash) and starts it again on its port. */
  restart(name: ServiceName, signal?: NodeJS.Signals): Promise<RunningService>;
  /** Peak resident memory (VmHWM, kB) of each service process that ran, the largest per service. */
  peakRssKb(): Record<ServiceName, number>;
  /** Stops everything and removes databases, queues and exchanges, even after a failure. */
  stop(): Promise<void>;
}

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

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

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
  const running = new Map<ServiceName, RunningService>();
  const peaks = new Map<ServiceName, number>();
  const samplePeak = (service: RunningService | undefined) => {
    if (service === undefined) return;
    const kb = readHwmKb(service.process.pid);
    if (kb !== undefined) peaks.set(service.name, Math.max(peaks.get(service.name) ?? 0, kb));
  };
  const stopService = async (name: ServiceName, signal: NodeJS.Signals = 'SIGTERM') => {
    const service = running.get(name);
    if (service === undefined) return;
    samplePeak(service);
    const forced = setTimeout(() => service.process.kill('SIGKILL'), 25_000);
    try {
      await service.stop(signal);
    } finally {
      clearTimeout(forced);
    }
  };

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
    }
    cleanups.push(() =>
      deleteAmqpObjects({
        queues: CONSUMERS.flatMap((consumer) => [
          `${prefix}.${consumer}`,
          `${prefix}.${consumer}.parked`,
          ...Array.from({ length: MAX_RETRY_STEPS }, (_, i) => `${prefix}.${consumer}.retry.${i + 1}`),
        ]),
        exchanges: Object.values(topologyNames(prefix)),
      }),
    );

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
    cleanups.push(() => Promise.resolve(rmSync(outboxDir, { recursive: true, force: true })));

    const ports = {} as Record<ServiceName, number>;
    for (const name of ['gateway', ...DATA_OWNERS] as const) ports[name] = await freePort();
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    const internalSecret = secret();
    const keyEncryptionKeys = `k1:${secret()}`;
    const tokenIssuer = gatewayUrl;

    const shared: Record<string, string> = {
      AMQP_URL: serviceAmqpUrl,
      AMQP_PREFIX: prefix,
      PUBLIC_BASE_URL: gatewayUrl,
      TOKEN_ISSUER: tokenIssuer,
      INTERNAL_TOKEN_SECRET: internalSecret,
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
      NOTIFIER_OUTBOX_DIR: outboxDir,
      // Tests drive many calls from one token: the limits have tests of their own.
      RATE_LIMIT_TOKEN: 'off',
      RATE_LIMIT_SITE: 'off',
      RATE_LIMIT_COSTLY: 'off',
    };
    const envOf = (name: ServiceName): Record<string, string> => ({
      ...shared,
      ...(name === 'gateway' ? {} : { DATABASE_URL: serviceDatabaseUrl(name) }),
      ...options.env?.[name],
    });
    const start = async (name: ServiceName) => {
      const service = await startService(name, envOf(name), {
        port: ports[name],
        timeoutMs: options.startTimeoutMs ?? 60_000,
        ...(options.nodeArgs?.[name] === undefined ? {} : { nodeArgs: options.nodeArgs[name] }),
      });
      running.set(name, service);
      return service;
    };

    // Auth first: the admin CLI and the gateway's JWKS need its keys. Then the others together.
    await start('auth');
    await Promise.all([start('requests'), start('notifier')]);
    await start('gateway');

    const admin = async (...args: string[]): Promise<Record<string, unknown>> => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATABASE_URL: databases.auth.url,
        KEY_ENCRYPTION_KEYS: keyEncryptionKeys,
        TOKEN_ISSUER: tokenIssuer,
        LOG_LEVEL: 'warn',
      };
      delete env.NODE_OPTIONS;
      const child = spawn(process.execPath, [join(repoRoot, 'services/auth/dist/src/admin.js'), ...args], {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      if (code !== 0) throw new Error(`admin ${args.join(' ')} exited ${code}: ${stdout}${stderr}`);
      return JSON.parse(stdout) as Record<string, unknown>;
    };

    const createTenant = async (name: string): Promise<Tenant> => {
      const suffix = randomBytes(3).toString('hex');
      const { account } = (await admin('create-account', '--name', `${name} ${suffix}`)) as {
        account: { id: string };
      };
      const [{ site }, { user }] = (await Promise.all([
        admin('create-site', '--account', account.id, '--name', `${name} site ${suffix}`),
        admin(
          'create-user',
          '--account',
          account.id,
          '--email',
          `dev-${suffix}@${name.toLowerCase()}.example`,
        ),
      ])) as [{ site: { id: number; name: string } }, { user: { id: string; email: string } }];
      const [, { app }] = (await Promise.all([
        admin('add-member', '--site', String(site.id), '--user', user.id),
        admin('create-app', '--user', user.id, '--name', `${name} integration`),
      ])) as [unknown, { app: { id: string } }];
      const issued = (await admin('create-token', '--app', app.id)) as {
        token: { id: string };
        access_token: string;
      };
      return {
        accountId: account.id,
        site: { id: site.id, name: site.name },
        user: { id: user.id, email: user.email },
        appId: app.id,
        token: { id: issued.token.id, accessToken: issued.access_token },
      };
    };

    const signAsIssuer = async (claims: Record<string, unknown>): Promise<string> => {
      const client = new pg.Client({ connectionString: databases.auth.url });
      await client.connect();
      let row: { kid: string; encryption_key_id: string; sealed_private_key: Buffer } | undefined;
      try {
        const result = await client.query<{
          kid: string;
          encryption_key_id: string;
          sealed_private_key: Buffer;
        }>(
          `SELECT kid, encryption_key_id, sealed_private_key FROM signing_keys
           WHERE revoked_at IS NULL AND activates_at <= now() ORDER BY activates_at DESC LIMIT 1`,
        );
        row = result.rows[0];
      } finally {
        await client.end();
      }
      if (row === undefined) throw new Error('auth has no signing key yet');
      const key = openSealedKey(keyEncryptionKeys, row.encryption_key_id, row.sealed_private_key, row.kid);
      const header = base64url(JSON.stringify({ alg: 'EdDSA', typ: 'at+jwt', kid: row.kid }));
      const payload = base64url(JSON.stringify(claims));
      const signature = sign(null, Buffer.from(`${header}.${payload}`), key);
      return `${header}.${payload}.${base64url(signature)}`;
    };

    return {
      gatewayUrl,
      get services() {
        return Object.fromEntries(running) as Record<ServiceName, RunningService>;
      },
      smtp,
      twilio,
      databases,
      amqpPrefix: prefix,
      proxies,
      internalSecret,
      admin,
      createTenant,
      signAsIssuer,
      restart: async (name, signal = 'SIGTERM') => {
        await stopService(name, signal);
        return start(name);
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

/** Opens a signing key sealed by auth (AES-256-GCM under an HKDF of KEY_ENCRYPTION_KEYS, kid as AAD). */
const openSealedKey = (keys: string, keyId: string, sealed: Buffer, kid: string): KeyObject => {
  const entry = keys.split(',').find((k) => k.startsWith(`${keyId}:`));
  if (entry === undefined) throw new Error(`no key encryption key ${keyId}`);
  const derived = Buffer.from(
    hkdfSync('sha256', entry.slice(keyId.length + 1), 'esign-auth', `signing-key-encryption:${keyId}`, 32),
  );
  const nonce = sealed.subarray(1, 13);
  const tag = sealed.subarray(sealed.length - 16);
  const decipher = createDecipheriv('aes-256-gcm', derived, nonce);
  decipher.setAAD(Buffer.from(kid, 'utf8'));
  decipher.setAuthTag(tag);
  const der = Buffer.concat([decipher.update(sealed.subarray(13, sealed.length - 16)), decipher.final()]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
};
