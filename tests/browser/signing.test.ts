import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from '@cantoo/pdf-lib';
import * as t from 'io-ts';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PRINCIPAL_AUDIENCES, type RequestView } from '@esign/contracts';
import {
  consumerQueues,
  createDatabasePool,
  db,
  ensureLocalSealCertificate,
  sql,
  topologyNames,
  type DatabasePool,
  type ShutdownStep,
} from '@esign/platform';
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
import { parseConfig as requestsConfig } from '../../services/requests/src/config.js';
import { startRequestsService } from '../../services/requests/src/service.js';
import { NOTIFICATION_OUTCOMES_CONSUMER } from '../../services/requests/src/application/lifecycle.js';
import { pdfText } from '../../services/requests/test/support/pdf-text.js';
import { parseConfig as notifierConfig } from '../../services/notifier/src/config.js';
import { startNotifierService } from '../../services/notifier/src/service.js';
import { CONSUMER_NAME as NOTIFIER_CONSUMER } from '../../services/notifier/src/adapters/amqp/notification-consumer.js';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SITE = { id: 31, name: 'Acme Rentals' };
const PHONE = { width: 390, height: 844 };

interface Landing {
  readonly url: URL;
}

/**
 * The signer's whole journey in a real browser (Debian's Chromium, headless): the
 * requests service and the notifier run as they do in production (their composition
 * roots, real Postgres, RabbitMQ and an SMTP server); the Execution URL is read from the
 * e-mail the notifier sent; the signer fills the fields on a phone-sized page, draws and
 * types a signature, signs, and lands on the client's redirect_url. The executed PDF is
 * then downloaded through the API and read back.
 */
describe('signer flow in headless Chromium: e-mail → page → sign or decline → redirect → executed PDF', function () {
  this.timeout(60_000);
  let requestsDb: TestDatabase;
  let sealDir: string | undefined;
  let notifierDb: TestDatabase;
  let pool: DatabasePool;
  let prefix: string;
  let smtp: SmtpDouble;
  let server: Server;
  let client: Server;
  let base: string;
  let clientBase: string;
  let browser: Browser;
  let steps: ShutdownStep[] = [];
  const landings: Landing[] = [];
  let headers: Record<string, string>;

  const api = async (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const json = async <A>(method: string, path: string, body?: unknown, status = 200): Promise<A> => {
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
  const linkFromMail = async (address: string): Promise<string> => {
    const mail = await eventually(
      () => Promise.resolve(smtp.received.find((m) => m.to.includes(address))),
      20_000,
    );
    const url = /https?:\/\/\S+\/sign\?\S+/.exec(mail.mail.text ?? '')?.[0];
    assert.ok(url, `an Execution URL in the e-mail: ${mail.mail.text}`);
    assert.ok(url.startsWith(`${base}/sign?`), url);
    return url;
  };

  const newRequest = async (signer: string, template: number, locale?: string): Promise<RequestView> => {
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [template],
        signers: [
          { signer_id: signer, send_to: { email: true }, ...(locale === undefined ? {} : { locale }) },
        ],
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

  const openPage = async (): Promise<{ page: Page; problems: string[] }> => {
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

  let template: number;

  before(async () => {
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

  it('signs from the e-mail on a phone, lands on redirect_url, and the executed PDF holds the values', async () => {
    const view = await newRequest('alice@example.com', template);
    const link = await linkFromMail('alice@example.com');
    const { page, problems } = await openPage();
    const response = await page.goto(link);
    assert.equal(response?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Residential lease' }).waitFor();
    // render_data shows as text, escaped, inside the contract.
    assert.ok((await page.locator('article.contract').innerText()).includes('Alice <Example> & Sons'));

    await page.getByRole('textbox', { name: 'Full name (required)' }).fill('Alice Example');
    await page.getByRole('checkbox', { name: 'Agree', exact: true }).check();
    await page.getByRole('radio', { name: 'Furnished' }).check();
    await page.getByLabel('Type your full name').fill('Alice Example');
    // The drawing pad is there because script runs (nonce'd); draw a stroke with a finger-like path.
    const pad = page.locator('#pad');
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(box.x + 20 + i * 22, box.y + box.height * (0.7 - 0.4 * Math.sin(i / 2)));
    await page.mouse.up();
    assert.match(await page.locator('#drawn_signature').inputValue(), /^data:image\/png;base64,/);
    await page.getByLabel(/I have reviewed the document above/).check();

    const shot = join(ROOT, 'test-results', 'signing-page.png');
    await mkdir(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot, fullPage: true });
    if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(shot, join(ROOT, 'docs', 'signing-page.png'));

    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${clientBase}/signed`)),
      page.getByRole('button', { name: 'Sign', exact: true }).click(),
    ]);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('client_ref'), '42');
    assert.equal(landed.searchParams.get('request_id'), view.id);
    assert.equal(landed.searchParams.get('signer_id'), 'alice@example.com');
    assert.equal(landed.searchParams.get('status'), 'signed');
    // The client's server saw the same (the browser also asks it for a favicon: not a landing).
    const landing = landings.find(
      (l) => l.url.pathname === '/signed' && l.url.searchParams.get('request_id') === view.id,
    );
    assert.equal(landing?.url.searchParams.get('status'), 'signed');
    assert.deepEqual(problems, []);

    const signed = await json<RequestView>('GET', `/v1.1/requests/${view.id}`);
    assert.equal(signed.state, 'completed');
    assert.equal(signed.signers[0]!.state, 'signed');
    const act = await db.one(
      pool,
      t.type({ drawn: t.boolean, user_agent: t.string, ip: t.string }),
      sql.unsafe`SELECT drawn_signature IS NOT NULL AS drawn, user_agent, ip FROM signer_acts WHERE request_id = ${view.id}`,
    );
    assert.ok(act.drawn, 'the drawing was kept');
    assert.match(act.user_agent, /Chrome/);
    assert.equal(act.ip, '127.0.0.1');

    const download = await api('GET', `/v1.1/requests/${view.id}/download`);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    const bytes = new Uint8Array(await download.arrayBuffer());
    await writeFile(join(ROOT, 'test-results', 'executed.pdf'), bytes);
    const pdf = await PDFDocument.load(bytes);
    assert.equal(pdf.getTitle(), 'Executed: Residential lease');
    assert.ok(pdf.getPageCount() >= 3, 'cover, contract, audit trail');
    const { text } = await pdfText(bytes);
    for (const expected of [
      'Alice Example',
      'Furnished',
      'Yes',
      '& Sons',
      '12 Harbour Road, Springfield',
      'Audit trail',
      '127.0.0.1',
    ])
      assert.ok(text.includes(expected), `the executed PDF says "${expected}": ${JSON.stringify(text)}`);
    await page.context().close();
  });

  it('signing in order: a later signer’s link shows "not your turn yet", accessibly, and never the contract', async () => {
    const first = `first-${Date.now()}@example.com`;
    const second = `second-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [template],
        signers: [
          { signer_id: first, send_to: { email: true }, order: 1 },
          { signer_id: second, send_to: { email: true }, order: 2 },
        ],
        fields: ['full_name', 'agree', 'plan', 'signature'].map((name) => ({ name, assigned_to: first })),
        render_data: { tenant: 'Alice <Example> & Sons', address: '12 Harbour Road, Springfield' },
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    const response = await page.goto(view.signers[1]!.request_url);
    assert.equal(response?.status(), 409);
    await page.getByRole('heading', { level: 1, name: 'It is not your turn to sign yet' }).waitFor();
    assert.equal(await page.locator('form').count(), 0, 'nothing to sign or decline');
    assert.ok(!(await page.content()).includes('Harbour Road'), 'the contract is never shown');
    await expectAccessible(page, 'the "not your turn yet" page');
    await signerScreenshot(page, 'not-your-turn');
    // The 409 itself shows as a failed load; a CSP violation or script error would not.
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('signer authentication: the code-entry page, accessible, refuses a wrong code and opens the contract on the right one', async () => {
    const signer = `coded-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [template],
        signers: [
          {
            signer_id: signer,
            send_to: { email: true },
            authentication: { method: 'access_code', access_code: 'harbour-7731' },
          },
        ],
        fields: ['full_name', 'agree', 'plan', 'signature'].map((name) => ({ name, assigned_to: signer })),
        render_data: { tenant: 'Alice <Example> & Sons', address: '12 Harbour Road, Springfield' },
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(view.signers[0]!.request_url))?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Enter your code' }).waitFor();
    assert.ok(!(await page.content()).includes('Harbour Road'), 'the contract is not shown before the code');
    await expectAccessible(page, 'the code-entry page');
    await signerScreenshot(page, 'code-entry');

    await page.getByLabel('Access code').fill('wrong-code');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(/That code is not right\. 4 tries left/).waitFor();
    await expectAccessible(page, 'the code-entry page with an error');

    await page.getByLabel('Access code').fill('harbour-7731');
    await Promise.all([
      page.waitForURL((url) => url.searchParams.has('auth')),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    await page.getByRole('heading', { level: 1, name: 'Residential lease' }).waitFor();
    assert.ok((await page.locator('article.contract').innerText()).includes('12 Harbour Road'));
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('issue 23: the signing page in Spanish, lang="es", accessible, signs with its Spanish labels', async () => {
    await newRequest('ana@example.com', template, 'es');
    const mail = await eventually(
      () => Promise.resolve(smtp.received.find((m) => m.to.includes('ana@example.com'))),
      20_000,
    );
    assert.match(mail.mail.subject ?? '', /le ha enviado "Residential lease" para firmar$/);
    const link = await linkFromMail('ana@example.com');
    const { page, problems } = await openPage();
    assert.equal((await page.goto(link))?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Residential lease' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'es');
    assert.equal(await page.locator('html').getAttribute('dir'), 'ltr');
    assert.equal(await page.title(), 'Firmar: Residential lease · Acme Rentals');

    await page.getByRole('textbox', { name: 'Full name (obligatorio)' }).fill('Ana Pérez');
    await page.getByRole('radio', { name: 'Standard' }).check();
    await page.getByLabel('Escriba su nombre completo').fill('Ana Pérez');
    await page.getByLabel(/He revisado el documento anterior/).check();
    await expectAccessible(page, 'the signing page in Spanish');
    await signerScreenshot(page, 'signing-es');
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${clientBase}/signed`)),
      page.getByRole('button', { name: 'Firmar', exact: true }).click(),
    ]);
    assert.deepEqual(problems, []);
  });

  it('declines with a reason: the Request is declined and the link then says so', async () => {
    const view = await newRequest('bob@example.com', template);
    const link = await linkFromMail('bob@example.com');
    const { page, problems } = await openPage();
    await page.goto(link);
    await page.getByText('Decline to sign').click();
    await page.getByLabel(/why you decline/).fill('The address is wrong.');
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${clientBase}/signed`)),
      page.getByRole('button', { name: 'Decline' }).click(),
    ]);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('status'), 'declined');
    assert.equal(landed.searchParams.get('signer_id'), 'bob@example.com');
    assert.equal((await json<RequestView>('GET', `/v1.1/requests/${view.id}`)).state, 'declined');
    assert.deepEqual(problems, []);

    const again = await page.goto(link);
    assert.equal(again?.status(), 410);
    await page.getByRole('heading', { name: 'You declined to sign' }).waitFor();
    assert.equal(await page.locator('form').count(), 0, 'no form on a closed link');
    await page.context().close();
  });

  it('LOW 8: a link the sender replaced shows an accessible "replaced" page, and the new one opens', async () => {
    const view = await newRequest('carol@example.com', template);
    const old = await linkFromMail('carol@example.com');
    const after = await json<RequestView>(
      'POST',
      `/v1.1/requests/${view.id}/signers/${encodeURIComponent('carol@example.com')}/execution_url`,
      {},
    );
    const fresh = after.signers[0]!.request_url;
    assert.notEqual(fresh, old);
    const { page, problems } = await openPage();
    const answer = await page.goto(old);
    assert.equal(answer?.status(), 410);
    await page.getByRole('heading', { name: 'This link was replaced' }).waitFor();
    assert.equal(await page.locator('form').count(), 0, 'no form on a replaced link');
    await expectAccessible(page, 'the replaced-link page');
    const opened = await page.goto(fresh);
    assert.equal(opened?.status(), 200);
    // The 410 itself shows as a failed load; nothing else may (CSP, scripts).
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
