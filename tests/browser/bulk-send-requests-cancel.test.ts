import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import {
  expectAccessible,
  launchChromium,
  ownerWithTemplate,
  screenshot,
  signedInTab,
} from './support/web-app.js';

const PASSWORD = 'bulk send requests cancel browser test password 42';

/**
 * Cancelling the Requests a completed bulk send made, from its progress page, in real
 * headless Chromium against the whole built system (`POST /v1.1/bulk_sends/:id/cancel_requests`):
 * those still open are cancelled, the one closed before stays as it is, and doing it again
 * cancels nothing more.
 */
describe('web application in headless Chromium: cancelling the Requests a bulk send made', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  /** The owner's Site and template, and the API with a token of theirs (not the browser's). */
  let setup: Awaited<ReturnType<typeof ownerWithTemplate>>;

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_bulk_requests_cancel' });
    web = `${system.gatewayUrl}/app`;
    const owner = 'owner@acme-bulk-cancel.example';
    setup = await ownerWithTemplate(system, {
      account: 'Acme bulk requests cancel',
      owner,
      password: PASSWORD,
      template: { name: 'Service agreement', html: '<p>Agreement with {{client_name}}</p>' },
    });
    browser = await launchChromium();
    ({ page, problems } = await signedInTab(browser, system.gatewayUrl, owner, PASSWORD));
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'no console or script errors');
  });

  const noticeText = async () =>
    ((await page.locator('p.success[role="status"]').textContent()) ?? '').replace(/\s+/g, ' ').trim();

  it('cancels the open Requests of a completed bulk send, leaving the one closed already', async () => {
    const clients = ['Ann', 'Bob', 'Cat'];
    const started = await setup.json(
      `/v1.1/sites/${setup.site}/bulk_sends`,
      'POST',
      {
        contracts: [setup.template],
        send: true,
        rows: clients.map((name, i) => ({
          signers: [
            {
              signer_id: `${name.toLowerCase()}-${i}`,
              signer: { email: `${name.toLowerCase()}@client.example` },
              send_to: { email: true },
            },
          ],
          render_data: { client_name: name },
        })),
      },
      202,
    );
    const id = started.id as string;
    const made = await eventually(
      async () => {
        const bulk = await setup.json(`/v1.1/bulk_sends/${id}`);
        return bulk.state === 'completed' ? (bulk.requests as { request_id: string }[]) : undefined;
      },
      60_000,
      250,
    );
    assert.equal(made.length, 3);
    // One of them cancelled on its own before: closed already, left as it is.
    const [first, ...others] = made.map((r) => r.request_id);
    await setup.json(`/v1.1/requests/${first}/cancel`, 'POST');

    const here = `${web}/bulk-sends/${id}`;
    await page.goto(here);
    await page.getByText('Cancel the Requests it made…').click();
    const cancel = page.getByRole('button', { name: 'Cancel its open Requests' });
    await cancel.waitFor();
    assert.match(
      (await page.locator('#cancel-requests-hint').innerText()).replace(/\s+/g, ' '),
      /still a draft or waiting for signatures is cancelled, and its signing links stop working\./,
    );
    await expectAccessible(page, 'bulk send progress with its Requests cancel open');

    await cancel.click();
    await page.waitForURL(`${here}?done=requests-cancelled&cancelled=2&closed=1`);
    assert.equal(await noticeText(), 'Cancelled 2 Requests. 1 was closed already and stays as it is.');
    await expectAccessible(page, 'bulk send progress after its Requests were cancelled');
    await screenshot(page, 'bulk-send-requests-cancelled');
    for (const request of others)
      assert.equal((await setup.json(`/v1.1/requests/${request}`)).state, 'cancelled', request);

    // Again: nothing left open, nothing more cancelled.
    await page.getByText('Cancel the Requests it made…').click();
    await cancel.click();
    await page.waitForURL(`${here}?done=requests-cancelled&cancelled=0&closed=3`);
    assert.equal(
      await noticeText(),
      'No Request was open: nothing was cancelled. 3 were closed already and stay as they are.',
    );
  });
});
