// `docker-compose up` of docker-compose.yml with docker-compose.host.yml, the override for
// machines without a bridge network: the whole system from the service image against the
// machine's Postgres, RabbitMQ and Redis and an SMTP server started here, each service on
// a port of this run's own, then the client flow through the gateway it publishes, with
// a tenant made by auth's admin CLI inside the auth container (as an operator would).
// Needs a Docker engine and compose (v1 `docker-compose` or v2 `docker compose`).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ensureLocalSealCertificate } from '@esign/platform';
import { createEsignClient } from '@esign/client';
import {
  deleteSystemAmqpObjects,
  eventually,
  freePort,
  infra,
  provisionTenant,
  repoRoot,
  startSmtpServer,
  type AdminCli,
  type SmtpDouble,
} from '@esign/testing';
import { conformingFetch } from './support/conformance.js';
import {
  completedPdf,
  executionUrlIn,
  ok,
  publishedAgreement,
  unique,
  type ClientOf,
} from './support/flow.js';
import { apiClient, bearer } from './support/client.js';
import { signAt } from './support/signer.js';

const run = promisify(execFile);
const IMAGE = 'esign:local';

/** `docker-compose` (v1, Debian's) or `docker compose` (v2), whichever answers. */
const composeCommand = (): string[] | undefined => {
  if (spawnSync('docker', ['info'], { stdio: 'ignore' }).status !== 0) return undefined;
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0)
    return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  return undefined;
};

describe('docker-compose up with the host-network override: the whole system from the image', function () {
  this.timeout(180_000);
  const suffix = randomBytes(3).toString('hex');
  const project = `esign-test-${suffix}`;
  const databasePrefix = `esign_compose_${suffix}`;
  const amqpPrefix = `t.compose.${suffix}`;
  let compose: string[] = [];
  let env: NodeJS.ProcessEnv = {};
  let smtp: SmtpDouble | undefined;
  let gatewayUrl = '';
  /** The gateway's operations port: /readyz and /metrics (ADR 1313). */
  let opsUrl = '';
  let up = false;
  /**
   * docker-compose.yml configures no seal for executed PDFs (no key is committed): this
   * run's own self-signed one, mounted into requests by one more override file.
   */
  const sealDir = mkdtempSync(join(tmpdir(), 'compose-seal-'));
  const sealOverride = join(sealDir, 'seal.override.yml');

  const composeRun = async (...args: string[]) =>
    run(
      compose[0]!,
      [
        ...compose.slice(1),
        '-p',
        project,
        '-f',
        'docker-compose.yml',
        '-f',
        'docker-compose.host.yml',
        '-f',
        sealOverride,
        ...args,
      ],
      {
        cwd: repoRoot,
        env,
        maxBuffer: 64 * 1024 * 1024,
      },
    );

  before(async function () {
    const command = composeCommand();
    if (command === undefined) {
      console.warn(
        '  (no Docker engine or compose answers: the compose suite is skipped; .ci/run starts one)',
      );
      this.skip();
    }
    compose = command;
    this.timeout(1_800_000);
    const built = spawnSync('bash', ['scripts/images.sh'], {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(built.status, 0, `scripts/images.sh failed:\n${built.stdout}\n${built.stderr}`);

    const seal = ensureLocalSealCertificate(sealDir, 'esign compose test seal').files;
    // The service runs as uid 1000; this throw-away key may be readable by all.
    chmodSync(sealDir, 0o755);
    chmodSync(seal.PDF_SIGNING_KEY_FILE, 0o644);
    writeFileSync(
      sealOverride,
      [
        'services:',
        '  requests:',
        '    environment:',
        '      PDF_SIGNING_CERT_FILE: /etc/esign/pdf-seal/seal-cert.pem',
        '      PDF_SIGNING_KEY_FILE: /etc/esign/pdf-seal/seal-key.pem',
        '    volumes:',
        `      - ${sealDir}:/etc/esign/pdf-seal:ro`,
        '',
      ].join('\n'),
    );

    smtp = await startSmtpServer();
    const { databaseUrl, amqpUrl } = infra();
    const server = new URL(databaseUrl);
    server.pathname = '';
    const ports = {
      gateway: await freePort(),
      auth: await freePort(),
      requests: await freePort(),
      notifier: await freePort(),
    };
    gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    const opsPort = await freePort();
    opsUrl = `http://127.0.0.1:${opsPort}`;
    env = {
      ...process.env,
      ESIGN_PG_URL: server.toString().replace(/\/$/, ''),
      ESIGN_PG_PORT: server.port || '5432',
      ESIGN_PG_DATABASE_PREFIX: databasePrefix,
      ESIGN_AMQP_URL: amqpUrl,
      ESIGN_AMQP_PORT: new URL(amqpUrl).port || '5672',
      ESIGN_AMQP_PREFIX: amqpPrefix,
      ESIGN_SMTP_PORT: String(smtp.port),
      ESIGN_GATEWAY_PORT: String(ports.gateway),
      ESIGN_GATEWAY_OPS_PORT: String(opsPort),
      ESIGN_AUTH_PORT: String(ports.auth),
      ESIGN_REQUESTS_PORT: String(ports.requests),
      ESIGN_NOTIFIER_PORT: String(ports.notifier),
    };
    up = true;
    try {
      await composeRun('up', '-d', '--no-build');
    } catch (error) {
      const logs = await composeRun('logs', '--no-color', '--tail', '60').catch(() => ({ stdout: '' }));
      throw new Error(`docker-compose up failed: ${String(error)}\n${logs.stdout}`);
    }
    await eventually(
      async () => ((await fetch(`${opsUrl}/readyz`).catch(() => undefined))?.ok ? true : undefined),
      240_000,
      1_000,
    );
  });

  after(async function () {
    this.timeout(300_000);
    if (up) await composeRun('down', '--volumes', '--timeout', '30').catch(() => undefined);
    rmSync(sealDir, { recursive: true, force: true });
    await smtp?.close();
    if (!up) return;
    await deleteSystemAmqpObjects(amqpPrefix).catch(() => undefined);
    const client = new pg.Client({ connectionString: infra().databaseUrl });
    await client.connect();
    try {
      for (const name of ['auth', 'requests', 'notifier'])
        await client.query(
          `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(`${databasePrefix}_${name}`)} WITH (FORCE)`,
        );
    } finally {
      await client.end();
    }
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    const logs = await composeRun('logs', '--no-color', '--tail', '40').catch(() => ({ stdout: '' }));
    console.error(logs.stdout);
  });

  it('has every service of the file running from the image, healthy', async () => {
    const { stdout } = await composeRun('ps');
    for (const service of ['auth', 'requests', 'notifier', 'gateway'])
      assert.match(stdout, new RegExp(`${project}[_-]${service}[_-]1`));
    assert.equal((await fetch(`${gatewayUrl}/healthz`)).status, 200);
    assert.equal((await fetch(`${opsUrl}/readyz`)).status, 200, 'readiness on the operations port');
    const images = await run('docker', [
      'ps',
      '--filter',
      `label=com.docker.compose.project=${project}`,
      '--format',
      '{{.Image}}',
    ]);
    assert.ok(
      images.stdout
        .split('\n')
        .filter(Boolean)
        .every((image) => image === IMAGE),
      images.stdout,
    );
  });

  it('passes the client flow: template → create → send → e-mail → sign → completed → executed PDF', async () => {
    // The operator's admin CLI, run inside the auth container.
    const admin: AdminCli = async (...args) => {
      const { stdout } = await composeRun(
        'exec',
        '-T',
        'auth',
        'node',
        'services/auth/dist/src/adapters/cli/admin.js',
        ...args,
      );
      return JSON.parse(stdout) as Record<string, unknown>;
    };
    const tenant = await provisionTenant(admin, 'Compose');
    const client: ClientOf = {
      tenant,
      esign: createEsignClient({
        baseUrl: gatewayUrl,
        accessToken: tenant.token.accessToken,
        fetch: (request) => conformingFetch(request),
      }),
      api: apiClient(gatewayUrl, bearer(tenant.token.accessToken)),
      site: tenant.site.id,
    };
    const template = await publishedAgreement(client);
    const email = `compose-${unique()}@example.com`;
    const created = ok(
      await client.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: client.site } },
        body: {
          contracts: [template],
          signers: [{ signer_id: email, send_to: { email: true } }],
          fields: ['full_name', 'signature', 'witness_signature'].map((name) => ({
            name,
            assigned_to: email,
          })),
          render_data: { client_name: 'Compose Client', start_date: '2030-01-01' },
        },
      }),
      201,
      'create',
    );
    ok(
      await client.esign.POST('/v1.1/requests/{request_id}/send', {
        params: { path: { request_id: created.id } },
      }),
      200,
      'send',
    );
    const mail = await eventually(
      () => Promise.resolve(smtp!.received.find((m) => m.to.includes(email))),
      90_000,
      250,
    );
    const signed = await signAt(executionUrlIn(mail.mail.text ?? ''), 'Casey Compose');
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    await completedPdf(client, created.id);
  });
});
