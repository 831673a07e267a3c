import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RequestView } from '@esign/contracts';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectAccessible, launchChromium, openTab, PHONE, screenshot } from './support/web-app.js';

/**
 * The web application's Verify page (`/app/verify`, no account) in headless Chromium
 * against the whole built system: a Request is signed in the browser, its executed PDF
 * downloaded through the API, then checked on the page: valid as issued, modified after a
 * one-byte change; axe-core finds nothing on either answer, on a desktop and a phone.
 */
describe('web application in headless Chromium: the Verify page', function () {
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let dir: string;
  let original: string;
  let modified: string;
  let requestId: string;

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_verify' });
    const tenant = await system.createTenant('Acmeverify');
    const api = async <T>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
      const res = await fetch(`${system.gatewayUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${tenant.token.accessToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      });
      assert.equal(res.status, status, `${method} ${path}`);
      return (
        res.headers.get('content-type')?.includes('json') ? await res.json() : await res.arrayBuffer()
      ) as T;
    };
    const template = await api<{ id: number }>(
      'POST',
      `/v1.1/sites/${tenant.site.id}/contracts`,
      {
        type: 'html',
        name: 'Consulting agreement',
        html: '<h1>Consulting agreement</h1><p>Between Acme and the consultant named below.</p>',
        fields: [
          { name: 'full_name', type: 'text', max_length: 80 },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    await api('POST', `/v1.1/contracts/${template.id}/publish`);
    const signer = 'consultant@example.com';
    const view = await api<RequestView>(
      'POST',
      `/v1.1/sites/${tenant.site.id}/requests`,
      {
        contracts: [template.id],
        signers: [{ signer_id: signer, signer: { email: signer } }],
        fields: [
          { name: 'full_name', assigned_to: signer },
          { name: 'signature', assigned_to: signer },
        ],
      },
      201,
    );
    requestId = view.id;
    await api('POST', `/v1.1/requests/${view.id}/send`);

    browser = await launchChromium();
    ({ page, problems } = await openTab(browser));
    await page.goto(view.signers[0]!.request_url);
    await page.getByRole('textbox', { name: 'Full name (required)' }).fill('Maria Müller');
    await page.getByLabel('Type your full name').fill('Maria Müller');
    await page.getByLabel(/I have reviewed the document above/).check();
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Sign', exact: true }).click(),
    ]);

    const pdf = Buffer.from(await api<ArrayBuffer>('GET', `/v1.1/requests/${view.id}/download`));
    dir = await mkdtemp(join(tmpdir(), 'verify-page-'));
    original = join(dir, `request-${view.id}-executed.pdf`);
    await writeFile(original, pdf);
    const changed = Buffer.from(pdf);
    const at = Math.floor(changed.indexOf('/ByteRange') / 2);
    changed[at] = changed[at]! ^ 0x01;
    modified = join(dir, 'edited.pdf');
    await writeFile(modified, changed);
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'no console or script errors');
  });

  const check = async (file: string) => {
    await page.goto(`${system.gatewayUrl}/app/verify`);
    await page.getByLabel('Executed PDF').setInputFiles(file);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Verify' }).click()]);
  };

  it('shows the form without an account, accessible', async () => {
    const res = await page.goto(`${system.gatewayUrl}/app/verify`);
    assert.equal(res?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Verify an executed document' }).waitFor();
    await expectAccessible(page, 'verify');
  });

  it('says valid for the PDF as issued, with its Request, signers and hashes', async () => {
    await check(original);
    await page.getByRole('heading', { name: 'Valid: this is the executed document as issued' }).waitFor();
    const text = await page.locator('main').innerText();
    assert.ok(text.includes(requestId), 'the Request id');
    assert.ok(text.includes('consultant@example.com') && text.includes('Maria Müller'), 'the signer');
    assert.ok(text.includes('Consulting agreement'), 'the contract');
    await expectAccessible(page, 'verify: valid');
    await screenshot(page, 'verify');
  });

  it('says modified for a copy with one byte changed; asks for a file when none is chosen; fits a phone', async () => {
    await check(modified);
    await page.getByRole('heading', { name: 'Modified: this is not the document as issued' }).waitFor();
    assert.ok((await page.locator('main').innerText()).includes(requestId));
    await expectAccessible(page, 'verify: modified');

    await page.goto(`${system.gatewayUrl}/app/verify`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Verify' }).click()]);
    await page.getByRole('alert').getByText('Choose the PDF file to verify').waitFor();
    await expectAccessible(page, 'verify: no file');

    const phone = await openTab(browser, PHONE);
    await phone.page.goto(`${system.gatewayUrl}/app/verify`);
    await phone.page.getByLabel('Executed PDF').setInputFiles(original);
    await Promise.all([
      phone.page.waitForLoadState('load'),
      phone.page.getByRole('button', { name: 'Verify' }).click(),
    ]);
    await phone.page.getByRole('heading', { name: /^Valid/ }).waitFor();
    const overflow = await phone.page.evaluate<number>(
      'document.documentElement.scrollWidth - window.innerWidth',
    );
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
    await expectAccessible(phone.page, 'verify on a phone');
    await phone.context.close();
    assert.deepEqual(phone.problems, []);
  });
});
