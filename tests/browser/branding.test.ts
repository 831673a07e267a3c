import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { pdfText } from '../../services/requests/test/support/pdf-text.js';
import { testLogo } from '../../services/requests/test/support/png.js';
import { signerScreenshot } from './support/signer-pages.js';
import { expectAccessible, launchChromium, openTab, screenshot } from './support/web-app.js';
import { sentOneSignerRequest } from './support/sent-request.js';

const PASSWORD = 'branding browser test password 42';
const EMAIL = 'owner@harbour-lettings.example';
const DISPLAY = 'Harbour Lettings';
const ACCENT = '#005f73';

/**
 * Branding per Site end to end (issue 23 part 2, ADR 2301): set in the web application
 * (a pale colour refused by name), then a Request's e-mail as the SMTP server received
 * it, the signing page in Chromium (logo, colour, name; axe-core) and the executed PDF's
 * audit page all carry it.
 */
describe('branding per Site in headless Chromium: web application → e-mail → signing page → executed PDF', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let browser: Browser;
  let token: string;
  let site: number;

  const api = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${system.gatewayUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, res };
  };
  const json = async (path: string, method = 'GET', body?: unknown, status = 200) => {
    const { status: got, res } = await api(path, method, body);
    const text = await res.text();
    assert.equal(got, status, text);
    return JSON.parse(text) as Record<string, unknown>;
  };

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'branding' });
    const { account } = (await system.admin('create-account', '--name', 'Harbour')) as {
      account: { id: string };
    };
    const { site: created } = (await system.admin(
      'create-site',
      '--account',
      account.id,
      '--name',
      'harbour-prod',
    )) as {
      site: { id: number };
    };
    site = created.id;
    await system.admin('create-user', '--account', account.id, '--email', EMAIL, '--password', PASSWORD);
    await system.admin('add-member', '--site', String(site), '--user', EMAIL);
    const { app } = (await system.admin('create-app', '--user', EMAIL, '--name', 'Lettings')) as {
      app: { id: string };
    };
    ({ access_token: token } = (await system.admin('create-token', '--app', app.id)) as {
      access_token: string;
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('is set in the web application, which names a colour too pale for white text', async () => {
    const { context, page, problems } = await openTab(browser);
    try {
      await page.goto(`${system.gatewayUrl}/app/sign-in`);
      await page.getByLabel('E-mail').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/app\/requests/);
      await page.goto(`${system.gatewayUrl}/app/sites`);
      await page.getByRole('link', { name: 'Branding' }).click();
      await page.getByRole('heading', { level: 1, name: /^Branding/ }).waitFor();
      await expectAccessible(page, 'branding (empty)');
      await page.getByLabel('Display name').fill(DISPLAY);
      await page.getByLabel('Accent colour').fill('#9fd8e0');
      await page.getByLabel('Reply-to address').fill('lettings@harbour.example');
      await page.getByLabel('E-mail footer').fill('Harbour Lettings Ltd, 4 Quay Street, Portsmouth');
      await page
        .getByLabel('Logo (PNG)')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: testLogo() });
      await page.getByRole('button', { name: 'Save branding' }).click();
      await page.locator('#accent-color-error').waitFor();
      assert.match((await page.locator('#accent-color-error').textContent()) ?? '', /4\.5:1/);
      assert.equal(await page.getByLabel('Accent colour').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Display name').inputValue(), DISPLAY, 'what was entered is kept');
      await expectAccessible(page, 'branding refused');
      await page.getByLabel('Accent colour').fill(ACCENT);
      await page
        .getByLabel('Logo (PNG)')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: testLogo() });
      await page.getByRole('button', { name: 'Save branding' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await expectAccessible(page, 'branding saved');
      await screenshot(page, 'branding');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
    const saved = await json(`/v1.1/sites/${site}/branding`);
    assert.equal(saved.display_name, DISPLAY);
    assert.equal(saved.accent_color, ACCENT);
    assert.ok(saved.logo !== null);
  });

  it('shows in the e-mail, on the signing page and on the executed PDF’s audit page', async () => {
    const signer = 'tess@tenant.example';
    const requestId = await sentOneSignerRequest(json, site, {
      name: 'Tenancy agreement',
      html: '<h1>Tenancy agreement</h1><p>The tenant rents the flat at 4 Quay Street.</p>',
      signer,
    });

    const mail = await eventually(
      () => Promise.resolve(system.smtp.received.find((m) => m.to.includes(signer))),
      30_000,
    );
    assert.match(mail.mail.subject ?? '', /^Harbour Lettings sent you/);
    assert.match(mail.raw, /^Reply-To: lettings@harbour\.example\r?$/im);
    const html = String(mail.mail.html);
    assert.match(
      html,
      /<img src="http:\/\/[^"]+\/sign\/logo\/\d+\/[0-9a-f]{64}\.png" alt="Harbour Lettings"/,
    );
    assert.ok(html.includes(`background:${ACCENT}`));
    assert.ok(html.includes('Harbour Lettings Ltd, 4 Quay Street, Portsmouth'));
    assert.ok((mail.mail.text ?? '').includes('--\nHarbour Lettings Ltd, 4 Quay Street, Portsmouth'));
    const logoUrl = /<img src="([^"]+)"/.exec(html)![1]!;
    const logo = await fetch(logoUrl);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
    const link = /https?:\/\/\S+\/sign\?\S+/.exec(mail.mail.text ?? '')![0];

    const { context, page, problems } = await openTab(browser);
    try {
      await page.goto(link);
      const img = page.getByRole('img', { name: DISPLAY });
      await img.waitFor();
      assert.ok(
        await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth > 0),
        'the logo loads',
      );
      assert.equal(
        await page.locator('header .from').textContent(),
        'Harbour Lettings asks you to review and sign',
      );
      const button = page.getByRole('button', { name: 'Sign', exact: true });
      assert.equal(
        await button.evaluate(
          (el) =>
            (
              globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
            ).getComputedStyle(el).backgroundColor,
        ),
        'rgb(0, 95, 115)',
      );
      await expectAccessible(page, 'the branded signing page');
      await signerScreenshot(page, 'branded');
      await page.getByLabel('Type your full name').fill('Tess Tenant');
      await page.getByLabel(/I have reviewed the document above/).check();
      await button.click();
      await page.getByRole('heading', { name: 'Thank you: you have signed' }).waitFor();
      assert.ok(
        await page.getByRole('img', { name: DISPLAY }).isVisible(),
        'the thank-you page is branded too',
      );
      await expectAccessible(page, 'the branded thank-you page');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }

    const pdf = await eventually(async () => {
      const { status, res } = await api(`/v1.1/requests/${requestId}/download`);
      return status === 200 ? new Uint8Array(await res.arrayBuffer()) : undefined;
    }, 60_000);
    const { text } = await pdfText(pdf);
    assert.match(text, /Sent by:\s*Harbour Lettings/);
  });
});
