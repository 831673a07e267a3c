// What the signer-flow test files (signing*.test.ts) share: the requests service and the
// notifier started from their composition roots, a client that records its landings, a
// published contract, headless Chromium, and the calls the tests make on them.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PRINCIPAL_AUDIENCES, type RequestView } from '@esign/contracts';
import { ensureLocalSealCertificate, type ShutdownStep } from '@esign/platform';
import { createDatabasePool, type DatabasePool } from '@esign/platform/database';
import { consumerQueues, topologyNames } from '@esign/platform/messaging';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  eventually,
  infra,
  startSmtpServer,
  testLogger,
  type SmtpDouble,
  type TestDatabase,
  testGatewayKeys,
} from '@esign/testing';
import { parseConfig as requestsConfig } from '../../../services/requests/src/config.js';
import { startRequestsService } from '../../../services/requests/src/service.js';
import { NOTIFICATION_OUTCOMES_CONSUMER } from '../../../services/requests/src/application/delivery-outcomes.js';
import { parseConfig as notifierConfig } from '../../../services/notifier/src/config.js';
import { startNotifierService } from '../../../services/notifier/src/service.js';
import { CONSUMER_NAME as NOTIFIER_CONSUMER } from '../../../services/notifier/src/adapters/amqp/notification-consumer.js';

const CHROMIUM = '/usr/bin/chromium';
export const SITE = { id: 31, name: 'Acme Rentals' };
const PHONE = { width: 390, height: 844 };

interface Landing {
  readonly url: URL;
}

/*
 * The file's services, client and contract: live bindings, set by the `before` hook that
 * `useSigningFlow` registers (each file that calls it sets them anew).
 */
let requestsDb: TestDatabase;
let sealDir: string | undefined;
let notifierDb: TestDatabase;
export let pool: DatabasePool;
let prefix: string;
export let smtp: SmtpDouble;
let server: Server;
let client: Server;
let base: string;
export let clientBase: string;
let browser: Browser;
let steps: ShutdownStep[] = [];
/** Every request the client's server saw: where the browser landed. */
export const landings: Landing[] = [];
let headers: Record<string, string>;
/** The published contract ("Residential lease") the tests send. */
export let template: number;

export const api = async (method: string, path: string, body?: unknown): Promise<Response> =>
  fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
export const json = async <A>(method: string, path: string, body?: unknown, status = 200): Promise<A> => {
  const res = await api(method, path, body);
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as A;
};

const listen = async (s: Server): Promise<string> => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

/** The Execution URL in the e-mail the notifier sent to `address`. */
export const linkFromMail = async (address: string): Promise<string> => {
  const mail = await eventually(
    () => Promise.resolve(smtp.received.find((m) => m.to.includes(address))),
    20_000,
  );
  const url = /https?:\/\/\S+\/sign\?\S+/.exec(mail.mail.text ?? '')?.[0];
  assert.ok(url, `an Execution URL in the e-mail: ${mail.mail.text}`);
  assert.ok(url.startsWith(`${base}/sign?`), url);
  return url;
};

export const newRequest = async (signer: string, template: number, locale?: string): Promise<RequestView> => {
  const view = await json<RequestView>(
    'POST',
    `/v1.1/sites/${SITE.id}/requests`,
    {
      contracts: [template],
      signers: [{ signer_id: signer, send_to: { email: true }, ...(locale === undefined ? {} : { locale }) }],
      fields: ['full_name', 'agree', 'plan', 'signature'].map((name) => ({
        name,
        assigned_to: signer,
        ...(name === 'plan' ? { default_value: 'Standard' } : {}),
      })),
      render_data: { tenant: 'Alice <Example> & Sons', address: '12 Harbour Road, Springfield' },
      redirect_url: `${clientBase}/signed?client_ref=42`,
    },
    201,
  );
  await json('POST', `/v1.1/requests/${view.id}/send`);
  return view;
};

export const openPage = async (): Promise<{ page: Page; problems: string[] }> => {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  // A CSP violation or a script error shows here: the page must produce none.
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { page, problems };
};

/**
 * The signer's whole journey in a real browser (Debian's Chromium, headless): the
 * requests service and the notifier run as they do in production (their composition
 * roots, real Postgres, RabbitMQ and an SMTP server); the Execution URL is read from the
 * e-mail the notifier sent; the signer fills the fields on a phone-sized page, draws and
 * types a signature, signs, and lands on the client's redirect_url. The executed PDF is
 * then downloaded through the API and read back.
 *
 * Registers, in the calling `describe`, the hooks that start all of it and stop it.
 */
export const useSigningFlow = (): void => {
  before(async () => {
    landings.splice(0);
    if (!existsSync(CHROMIUM))
      throw new Error(
        `No Chromium at ${CHROMIUM}: install Debian's "chromium" package (listed in .ci/apt-packages, which .ci/run installs).`,
      );
    [requestsDb, notifierDb] = await Promise.all([
      createTestDatabase('browser-requests'),
      createTestDatabase('browser-notifier'),
    ]);
    prefix = amqpPrefix('browser');
    smtp = await startSmtpServer();
    client = createServer((req: IncomingMessage, res) => {
      landings.push({ url: new URL(req.url ?? '/', clientBase) });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Back at the client</title><h1>Thanks, back at Acme</h1>');
    });
    clientBase = await listen(client);
    // The service's own address is its public base: the gateway passes /sign through unchanged.
    server = createServer();
    base = await listen(server);
    const requests = await startRequestsService(
      requestsConfig({
        DATABASE_URL: requestsDb.url,
        AMQP_URL: infra().amqpUrl,
        AMQP_PREFIX: prefix,
        PUBLIC_BASE_URL: base,
        PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
        URL_SIGNING_KEYS: 'browser:browser-test-url-signing-secret-0123456789',
        LOG_LEVEL: 'silent',
        // The executed PDF is sealed (ADR 2100): a self-signed certificate of this run's own.
        ...ensureLocalSealCertificate(mkdtempSync(join(tmpdir(), 'browser-seal-')), 'browser test seal')
          .files,
      }),
      testLogger('requests'),
    );
    server.on('request', requests.app.callback());
    const notifier = await startNotifierService(
      notifierConfig({
        DATABASE_URL: notifierDb.url,
        AMQP_URL: infra().amqpUrl,
        AMQP_PREFIX: prefix,
        SMTP_URL: smtp.url,
        EMAIL_FROM: 'Acme Rentals <no-reply@esign.example>',
        PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
        KEY_ENCRYPTION_KEYS: 'k1:browser-test-key-encryption-secret-0123456789',
        LOG_LEVEL: 'silent',
      }),
      testLogger('notifier'),
    );
    steps = [...notifier.steps, ...requests.steps];
    pool = await createDatabasePool(requestsDb.url);
    headers = {
      'x-esign-principal': await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.requests, {
        sub: 'user-1',
        token_id: 'token-1',
        sites: [SITE],
      }),
    };
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Residential lease',
        html: [
          '<h1>Residential lease</h1>',
          '<p>This lease is made between <strong>Acme Rentals</strong> (the landlord) and <strong>{{tenant}}</strong> (the tenant) for the home at {{address}}.</p>',
          '<h2>Terms</h2>',
          '<ol><li>The rent is due on the first day of each month.</li><li>The tenant keeps the home in good order.</li><li>Either party may end the lease with two months’ notice.</li></ol>',
        ].join(''),
        fields: [
          { name: 'full_name', type: 'text', max_length: 80 },
          { name: 'agree', type: 'checkbox' },
          { name: 'plan', type: 'choice', options: ['Standard', 'Furnished', 'Short stay'] },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    template = created.id;
    await json('POST', `/v1.1/contracts/${template}/publish`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });

  after(async () => {
    await browser?.close();
    if (sealDir !== undefined) rmSync(sealDir, { recursive: true, force: true });
    for (const step of steps) await step.run();
    await pool?.end();
    await Promise.all([
      smtp?.close(),
      new Promise((r) => (server ? server.close(r) : r(undefined))),
      new Promise((r) => (client ? client.close(r) : r(undefined))),
    ]);
    if (prefix !== undefined) {
      const names = topologyNames(prefix);
      const queues = [
        consumerQueues(prefix, NOTIFIER_CONSUMER, 5),
        consumerQueues(prefix, NOTIFICATION_OUTCOMES_CONSUMER, 5),
      ].flatMap((q) => [q.main, q.parked, ...q.retries]);
      await deleteAmqpObjects({ queues, exchanges: [names.events, names.deadLetter] });
    }
    await Promise.all([requestsDb?.drop(), notifierDb?.drop()]);
  });
};
