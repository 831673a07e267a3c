import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectAccessible, launchChromium, openTab, screenshot } from './support/web-app.js';
import { sentOneSignerRequest } from './support/sent-request.js';

const PASSWORD = 'webhooks browser test password 42';
const OWNER = 'owner@harbour-hooks.example';

interface Received {
  readonly body: string;
  readonly signature: string;
  readonly parsed: { readonly type: string; readonly data: { readonly request_id?: string } };
}

/** The README's check ("Verifying a delivery"): some `v1` is the HMAC of `t.body` with `secret`. */
const signedWith = (secret: string, header: string, body: string): boolean => {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([key]) => key === 't')?.[1];
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts
    .filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? ''))
    .some(([, value]) => timingSafeEqual(Buffer.from(value!, 'hex'), expected));
};

/**
 * Webhook endpoints in the web application, in headless Chromium against the whole built
 * system: from the Sites page to Webhooks, a refused New endpoint (no event ticked), then
 * one for `request.sent` at a receiver on loopback (the notifier is told to allow plain
 * http and private addresses, as in development), its secret shown once; a Request sent
 * through the API is delivered, signed with that secret, and shows in the endpoint's
 * deliveries with its attempt; then the endpoint is disabled, its secret rotated and it
 * is deleted after a confirmation page. axe-core on every state.
 */
describe('web application in headless Chromium: webhook endpoints', function () {
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let receiver: Server;
  let token: string;
  let site: number;
  const received: Received[] = [];

  const api = async (path: string, method = 'GET', body?: unknown, status = 200) => {
    const res = await fetch(`${system.gatewayUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, status, text);
    return JSON.parse(text) as Record<string, unknown>;
  };

  /** A Request of one signer, made and sent through the API: its `request.sent` is delivered. */
  const sendRequest = (): Promise<string> =>
    sentOneSignerRequest(api, site, {
      name: 'Mooring agreement',
      html: '<h1>Mooring agreement</h1><p>Berth 4, from May to September.</p>',
      signer: 'skipper@boats.example',
    });

  /** Before a full-page screenshot: Chromium scrolls a focused field into view afterwards. */
  const blur = (page: Page) => page.evaluate('document.activeElement && document.activeElement.blur()');

  before(async function () {
    this.timeout(600_000);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({
          body,
          signature: String(req.headers['esign-signature'] ?? ''),
          parsed: JSON.parse(body) as Received['parsed'],
        });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    system = await startEsignSystem({
      label: 'web_webhooks',
      // The receiver is on loopback over plain HTTP, which production refuses.
      env: { notifier: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true' } },
    });
    const { account } = (await system.admin('create-account', '--name', 'Harbour hooks')) as {
      account: { id: string };
    };
    ({
      site: { id: site },
    } = (await system.admin('create-site', '--account', account.id, '--name', 'Production')) as {
      site: { id: number };
    });
    await system.admin('create-user', '--account', account.id, '--email', OWNER, '--password', PASSWORD);
    await system.admin('add-member', '--site', String(site), '--user', OWNER);
    const { app } = (await system.admin('create-app', '--user', OWNER, '--name', 'Moorings')) as {
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
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('creates an endpoint (secret shown once), shows its delivery, disables, rotates and deletes it', async () => {
    const { context, page, problems } = await openTab(browser);
    const { port } = receiver.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/hooks`;
    try {
      await page.goto(`${system.gatewayUrl}/app/sign-in`);
      await page.getByLabel('E-mail').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/app\/requests/);
      await page.goto(`${system.gatewayUrl}/app/sites`);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: /^Webhooks/ }).waitFor();
      await page.getByText('This Site has no webhook endpoints yet.').waitFor();
      await expectAccessible(page, 'webhooks (none yet)');

      await page.getByRole('link', { name: 'New endpoint' }).click();
      await page.getByRole('heading', { level: 1, name: /^New webhook endpoint/ }).waitFor();
      assert.equal(await page.getByLabel('Alert e-mail').inputValue(), OWNER, 'the user’s own address');
      await expectAccessible(page, 'new webhook endpoint');
      await page.getByLabel('URL').fill(url);
      await page.getByLabel('Description (optional)').fill('Berth bookings');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await page.locator('#event-types-error').waitFor();
      assert.match((await page.locator('#event-types-error').textContent()) ?? '', /at least one/);
      assert.equal(await page.getByLabel('URL').inputValue(), url, 'what was typed is kept');
      assert.equal(await page.getByLabel('Description (optional)').inputValue(), 'Berth bookings');
      await expectAccessible(page, 'new webhook endpoint refused');

      await page.getByLabel('request.sent', { exact: true }).check();
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await page.getByRole('heading', { name: 'The endpoint’s signing secret' }).waitFor();
      const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      assert.match(secret, /^whsec_/);
      assert.equal(await page.getByRole('textbox', { name: 'Signing secret' }).getAttribute('readonly'), '');
      await page.getByText('it is shown this once and will not be shown again').waitFor();
      await page.getByRole('button', { name: 'Copy' }).click();
      await page
        .locator('#webhook-secret-status')
        .filter({ hasText: /Copied|Selected/ })
        .waitFor();
      await expectAccessible(page, 'webhook endpoint created, its secret shown once');
      await blur(page);
      await screenshot(page, 'webhook-created');

      const requestId = await sendRequest();
      const delivery = await eventually(
        () => Promise.resolve(received.find((r) => r.parsed.data.request_id === requestId)),
        60_000,
      );
      assert.equal(delivery.parsed.type, 'request.sent');
      assert.ok(signedWith(secret, delivery.signature, delivery.body), 'signed with the secret shown');

      // The form's answer was a redirect (ADR 3210): a reload shows the page, not the secret,
      // and posts nothing again.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: /^Webhook endpoint/ }).waitFor();
      assert.equal(await page.getByRole('textbox', { name: 'Signing secret' }).count(), 0);
      await page.goto(`${system.gatewayUrl}/app/webhooks`);
      await page.getByRole('cell', { name: 'Berth bookings' }).waitFor();
      assert.equal(
        await page.getByRole('cell', { name: 'Berth bookings' }).count(),
        1,
        'one endpoint, not two',
      );
      await expectAccessible(page, 'webhooks (one endpoint)');
      await page.getByRole('link', { name: url }).click();
      await page.getByRole('heading', { level: 1, name: /^Webhook endpoint/ }).waitFor();
      assert.equal(
        await page.getByRole('textbox', { name: 'Signing secret' }).count(),
        0,
        'the secret is not shown again',
      );
      const deliveries = page.getByRole('table', { name: 'Recent deliveries, newest first' });
      // The receiver answered; the notifier records it as delivered just after.
      await eventually(async () => {
        await page.reload();
        return (await deliveries.getByText('delivered').count()) > 0 ? true : undefined;
      }, 60_000);
      const row = deliveries.locator('tbody tr').first();
      assert.deepEqual(
        (await row.getByRole('cell').allTextContents()).slice(1).map((c) => c.trim()),
        ['request.sent', 'delivered', '1', '200'],
      );
      await expectAccessible(page, 'webhook endpoint with a delivery');
      await blur(page);
      await screenshot(page, 'webhooks');

      await page.getByLabel('Status').selectOption('failed');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('No deliveries failed yet.').waitFor();
      await page.getByLabel('Status').selectOption('delivered');
      await page.getByRole('button', { name: 'Filter' }).click();
      await deliveries.waitFor();
      await expectAccessible(page, 'deliveries filtered');

      await deliveries.getByRole('link').first().click();
      await page.getByRole('heading', { level: 1, name: 'Delivery of request.sent' }).waitFor();
      const attempts = page.getByRole('table', { name: 'Every attempt, first first' });
      const attempt = (await attempts.locator('tbody tr').first().getByRole('cell').allTextContents()).map(
        (c) => c.trim(),
      );
      assert.deepEqual([attempt[0], attempt[2], attempt[3], attempt[6]], ['1', 'delivered', '200', 'thanks']);
      assert.match(attempt[4] ?? '', /^\d+(\.\d)? (ms|s)$/);
      await expectAccessible(page, 'one delivery with its attempts');
      await page.getByRole('link', { name: 'Back to the endpoint’s deliveries' }).click();

      await page.getByRole('heading', { level: 1, name: /^Webhook endpoint/ }).waitFor();
      await page.getByLabel('Enabled').uncheck();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.locator('dd .state-disabled').waitFor();
      assert.equal(await page.getByLabel('Enabled').isChecked(), false);
      await expectAccessible(page, 'webhook endpoint disabled');

      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('heading', { name: 'The new signing secret' }).waitFor();
      const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      assert.match(rotated, /^whsec_/);
      assert.notEqual(rotated, secret);
      await page.getByText(/The old secret keeps working for a day/).waitFor();
      await expectAccessible(page, 'webhook secret rotated');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: /^Webhook endpoint/ }).waitFor();
      assert.equal(await page.getByRole('textbox', { name: 'Signing secret' }).count(), 0, 'shown once');

      await page.getByRole('link', { name: 'Delete this endpoint…' }).click();
      await page.getByRole('heading', { level: 1, name: 'Delete the webhook endpoint?' }).waitFor();
      await expectAccessible(page, 'delete confirmation');
      await page.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByRole('status').filter({ hasText: 'The endpoint was deleted' }).waitFor();
      await page.getByText('This Site has no webhook endpoints yet.').waitFor();
      await expectAccessible(page, 'webhooks after the deletion');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
    const left = await api(`/v1.1/sites/${site}/webhooks`);
    assert.deepEqual(left.data, []);
  });
});
