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

const PASSWORD = 'bulk send filters browser test password 42';
const DAY = 24 * 60 * 60 * 1000;
/** The UTC day `days` from now, `YYYY-MM-DD`. */
const utcDay = (days: number): string => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
/** The form's date fields left empty, as it sends them. */
const NO_DATES = 'created_from=&created_before=';

/**
 * Finding bulk sends and what they made (ADR 3440, amended) in real headless Chromium,
 * against the whole built system: a template's page lists the bulk sends made with it, the
 * Bulk sends page filters them by state and by the days started in (the Requests page's date
 * filter), and a bulk send's progress page lists the Requests
 * it made on the Requests page, by state too; once completed, it cancels the Requests it
 * made that are still open (ADR 3480).
 */
describe('web application in headless Chromium: bulk sends by template and state, and their Requests', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  /** The owner's Site and template, and the API with a token of theirs (not the browser's). */
  let setup: Awaited<ReturnType<typeof ownerWithTemplate>>;
  /** The bulk send of three sent Requests made with the owner's template. */
  let sent = '';
  /** The second template, and its bulk send of one draft. */
  let annex = 0;

  /** Starts a bulk send through the API and waits until every row is settled; answers its id. */
  const bulkSend = async (contract: number, send: boolean, clients: readonly string[]) => {
    const started = await setup.json(
      `/v1.1/sites/${setup.site}/bulk_sends`,
      'POST',
      {
        contracts: [contract],
        send,
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
    await eventually(
      async () => ((await setup.json(`/v1.1/bulk_sends/${id}`)).state === 'completed' ? true : undefined),
      60_000,
      250,
    );
    return id;
  };

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_bulk_filters' });
    web = `${system.gatewayUrl}/app`;
    const owner = 'owner@acme-bulk-filters.example';
    setup = await ownerWithTemplate(system, {
      account: 'Acme bulk filters',
      owner,
      password: PASSWORD,
      template: { name: 'Service agreement', html: '<p>Agreement with {{client_name}}</p>' },
    });
    sent = await bulkSend(setup.template, true, ['Ann', 'Bob', 'Cat']);
    const other = await setup.json(
      `/v1.1/sites/${setup.site}/contracts`,
      'POST',
      { type: 'html', name: 'Annex', html: '<p>Annex for {{client_name}}</p>' },
      201,
    );
    annex = other.id as number;
    await setup.json(`/v1.1/contracts/${annex}/publish`, 'POST');
    await bulkSend(annex, false, ['Dee']);

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

  it('lists the Requests the bulk send made, from its progress page, by state too (bulk_send_id)', async () => {
    const id = sent;
    await page.goto(`${web}/bulk-sends/${id}`);
    await page.getByRole('link', { name: 'The Requests it made, with their states' }).click();
    await page.waitForURL(`${web}/requests?bulk_send_id=${id}`);
    const status = page.getByRole('status').filter({ hasText: 'made by bulk send' });
    assert.equal(
      ((await status.textContent()) ?? '').replace(/\s+/g, ' ').trim(),
      `3 Requests made by bulk send ${id.slice(0, 8)} (bulk send ${id}). Not only this bulk send’s`,
    );
    const rows = page.locator('table tbody tr');
    assert.equal(await rows.count(), 3);
    await page.getByLabel('State').selectOption('sent');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/state=sent/);
    assert.match(page.url(), new RegExp(`bulk_send_id=${id}`), 'kept by the state filter');
    assert.equal(await rows.count(), 3, 'all three sent');
    await expectAccessible(page, 'the Requests a bulk send made');
    await screenshot(page, 'requests-by-bulk-send');
    await page.getByLabel('State').selectOption('completed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No completed Requests were made by bulk send').waitFor();
  });

  it('lists the bulk sends made with a template, from its page, and filters them by state', async () => {
    const statusText = async () => (await page.getByRole('status').innerText()).replace(/\s+/g, ' ').trim();
    const rows = page.getByRole('region', { name: 'Bulk sends' }).locator('tbody tr');
    const templatesOf = async () =>
      (await rows.locator('td:nth-child(2)').allInnerTexts()).map((t) => t.trim());

    // The Site lists both; each template's page links to its own.
    await page.goto(`${web}/bulk-sends`);
    assert.deepEqual(await templatesOf(), ['Annex', 'Service agreement']);
    await page.goto(`${web}/templates/${setup.template}`);
    await page.getByRole('link', { name: 'Bulk sends made with this template' }).click();
    await page.waitForURL(`${web}/bulk-sends?contract_id=${setup.template}`);
    assert.deepEqual(await templatesOf(), ['Service agreement']);
    assert.equal(
      await statusText(),
      '1 bulk send made with template Service agreement. Show every template’s',
    );
    await page.goto(`${web}/templates/${annex}`);
    await page.getByRole('link', { name: 'Bulk sends made with this template' }).click();
    await page.waitForURL(`${web}/bulk-sends?contract_id=${annex}`);
    assert.deepEqual(await templatesOf(), ['Annex']);
    await page.getByRole('status').getByRole('link', { name: 'Annex' }).waitFor();

    // Filtered by state, the template kept: none running, the one completed.
    const state = page.getByLabel('State', { exact: true });
    await state.selectOption('running');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(`${web}/bulk-sends?state=running&${NO_DATES}&contract_id=${annex}`);
    assert.equal(await rows.count(), 0);
    assert.equal(
      await statusText(),
      '0 bulk sends in state running made with template Annex. Show every template’s',
    );
    await page.getByText('No running bulk sends were made with template “Annex”.').waitFor();
    await state.selectOption('completed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(`${web}/bulk-sends?state=completed&${NO_DATES}&contract_id=${annex}`);
    assert.equal(await state.inputValue(), 'completed', 'the state kept chosen');
    assert.deepEqual(await templatesOf(), ['Annex']);
    assert.equal(
      await statusText(),
      '1 bulk send in state completed made with template Annex. Show every template’s',
    );
    await expectAccessible(page, 'bulk sends filtered by template and state');
    await screenshot(page, 'bulk-sends-filtered');

    // Every template's, in the state still.
    await page.getByRole('link', { name: 'Show every template’s' }).click();
    await page.waitForURL(`${web}/bulk-sends?state=completed`);
    assert.deepEqual(await templatesOf(), ['Annex', 'Service agreement']);
  });

  it('filters the bulk sends by the days started in, keeping the template, and says when none started then', async () => {
    const rows = page.getByRole('region', { name: 'Bulk sends' }).locator('tbody tr');
    const templatesOf = async () =>
      (await rows.locator('td:nth-child(2)').allInnerTexts()).map((t) => t.trim());
    const filter = async (from: string, to: string, url: string) => {
      await page.getByLabel('Started on or after').fill(from);
      await page.getByLabel('Started before').fill(to);
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(url);
    };

    // Started today (UTC): in a range of days that includes today, the template kept.
    const [from, to] = [utcDay(-1), utcDay(1)];
    const dates = `created_from=${from}&created_before=${to}`;
    await page.goto(`${web}/bulk-sends?contract_id=${annex}`);
    await filter(from, to, `${web}/bulk-sends?state=&${dates}&contract_id=${annex}`);
    assert.deepEqual(await templatesOf(), ['Annex']);
    await page
      .getByRole('status')
      .filter({
        hasText:
          /^\s*1\s+bulk send made with template\s+Annex\s+started from \d{1,2} \w{3} \d{4} to before \d{1,2} \w{3} \d{4}\./,
      })
      .waitFor();
    assert.equal(await page.getByLabel('Started on or after').inputValue(), from, 'kept in the field');
    assert.equal(await page.getByLabel('Started before').inputValue(), to, 'kept in the field');
    await page.getByText('Not including this day. Dates are in UTC.').waitFor();
    await expectAccessible(page, 'bulk sends started in a range of days');
    await screenshot(page, 'bulk-sends-by-date');
    await page.getByRole('link', { name: 'Show every template’s' }).click();
    await page.waitForURL(`${web}/bulk-sends?${dates}`);
    assert.deepEqual(await templatesOf(), ['Annex', 'Service agreement']);

    // None started in a range of days in the past: the one sentence says which filter.
    await filter(
      '2020-01-01',
      '2020-02-01',
      `${web}/bulk-sends?state=&created_from=2020-01-01&created_before=2020-02-01`,
    );
    await page.getByText('No bulk sends started from 1 Jan 2020 to before 1 Feb 2020.').waitFor();
    assert.equal(await rows.count(), 0);
    await expectAccessible(page, 'a range of days with no bulk send');
    await page.getByRole('link', { name: 'Clear the filter' }).click();
    await page.waitForURL(`${web}/bulk-sends`);
    assert.deepEqual(await templatesOf(), ['Annex', 'Service agreement']);
  });

  const noticeText = async () =>
    ((await page.locator('p.success[role="status"]').textContent()) ?? '').replace(/\s+/g, ' ').trim();

  // ADR 3480: the Requests a completed bulk send made, cancelled from its progress page.
  it('cancels the open Requests of a completed bulk send, leaving the one closed already', async () => {
    const id = await bulkSend(setup.template, true, ['Ann', 'Bob', 'Cat']);
    const made = (await setup.json(`/v1.1/bulk_sends/${id}`)).requests as { request_id: string }[];
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
    // A reason, kept in each Request's history (ADR 3500), and their signers told (ADR 3530).
    await page.getByLabel('Reason (optional)').fill('Sent with last year’s prices.');
    await page.getByLabel(/Tell their signers they were cancelled/).check();
    await expectAccessible(page, 'bulk send progress with its Requests cancel open');
    await screenshot(page, 'bulk-send-requests-cancel');

    await cancel.click();
    await page.waitForURL(`${here}?done=requests-cancelled&cancelled=2&closed=1&told=1`);
    assert.equal(
      await noticeText(),
      'Cancelled 2 Requests, and their signers who had been sent a link are being told. 1 was closed already and stays as it is.',
    );
    await expectAccessible(page, 'bulk send progress after its Requests were cancelled');
    await screenshot(page, 'bulk-send-requests-cancelled');
    for (const request of others) {
      assert.equal((await setup.json(`/v1.1/requests/${request}`)).state, 'cancelled', request);
      const history = await setup.json(`/v1.1/requests/${request}/events?order=desc`);
      const [latest] = history.data as { type: string; data: { reason?: string } }[];
      assert.deepEqual(
        [latest!.type, latest!.data.reason],
        ['request.cancelled', 'Sent with last year’s prices.'],
      );
    }
    // Bob and Cat are e-mailed, as they were invited, the reason quoted; Ann's was cancelled before.
    const toldOf = (to: string) =>
      system.smtp.received.filter(
        (m) => m.to.includes(to) && String(m.mail.text ?? '').includes('Sent with last year’s prices.'),
      ).length;
    await eventually(
      () => Promise.resolve(toldOf('bob@client.example') + toldOf('cat@client.example') === 2 || undefined),
      60_000,
      250,
    );
    const cancelMails = system.smtp.received.filter(
      (m) => m.to.includes('ann@client.example') && /cancelled the request/.test(String(m.mail.text ?? '')),
    );
    assert.deepEqual(cancelMails, [], 'the Request closed already tells nobody');

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
