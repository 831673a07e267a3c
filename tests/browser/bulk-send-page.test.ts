import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import {
  expectAccessible,
  launchChromium,
  openTab,
  screenshot,
  ownerWithTemplate,
} from './support/web-app.js';

const PASSWORD = 'bulk send browser test password 42';

/**
 * Bulk send from a CSV upload (issue #22) in real headless Chromium, against the whole
 * built system: the upload (with each row's title, ADR 3390), its preview with the bad row's
 * problem, the send, the progress page once the requests service has worked through the
 * rows, a Request made with its row's title, the Site's list of bulk sends (ADR 3440)
 * linking back to its progress, and a running bulk send cancelled from its page (ADR 3450).
 */
describe('web application in headless Chromium: bulk send from a CSV file', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  /** The progress page of the bulk send the second test makes. */
  let progress = '';
  /** The owner's Site and template, and the API with a token of theirs (not the browser's). */
  let setup: Awaited<ReturnType<typeof ownerWithTemplate>>;

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({
      label: 'web_bulk',
      // Sent rows paced by each token's money-costing bucket (ADR 2201), 5 every 20 s: the
      // bulk send made through the API is still running when its page is opened, and its
      // cancel leaves rows unmade. The browser's 3 sent rows stay within their own bucket.
      env: { requests: { RATE_LIMIT_COSTLY: '5/20s' } },
    });
    web = `${system.gatewayUrl}/app`;
    const owner = 'owner@acme-bulk.example';
    setup = await ownerWithTemplate(system, {
      account: 'Acme bulk',
      owner,
      password: PASSWORD,
      template: { name: 'Service agreement', html: '<p>Agreement with {{client_name}}</p>' },
    });

    browser = await launchChromium();
    ({ page, problems } = await openTab(browser));
    await page.goto(`${web}/sign-in`);
    await page.getByLabel('E-mail').fill(owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Requests/ }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'no console or script errors');
  });

  /** A progress page's rows are worked through in the background: its Refresh link, until completed. */
  const refreshUntilCompleted = (everyMs: number) =>
    eventually(
      async () => {
        await page.getByRole('link', { name: 'Refresh' }).first().click();
        await page.getByRole('heading', { name: /^Bulk send/ }).waitFor();
        return (await page.getByText('completed', { exact: true }).count()) > 0 ? true : undefined;
      },
      120_000,
      everyMs,
    );

  it('refuses an upload without a template or a file, next to the fields, and sends nothing', async () => {
    await page.getByRole('link', { name: 'Bulk send from a CSV file' }).click();
    await page.getByRole('heading', { name: /^Bulk send from a CSV file/ }).waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('#contracts-error', { hasText: 'Choose at least one contract template.' }).waitFor();
    await page.locator('#csv-error', { hasText: 'Choose a CSV file.' }).waitFor();
    await expectAccessible(page, 'bulk send form with errors');
  });

  it('previews 3 good rows and 1 bad one with its problem, sends them, and shows the progress', async () => {
    const csv = [
      'signer_id,signer_email,render_data.client_name,title',
      'client-1,ann@client.example,Ann,  Ann’s 2031 renewal ',
      'client-2,bob@client.example,Bob,Bob’s 2031 renewal',
      ',,Nobody,',
      'client-4,cy@client.example,"Cy, Ltd",',
    ].join('\n');
    await page.goto(`${web}/bulk-sends/new`);
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    // ADR 3380: one message to the signers of every Request the bulk send makes.
    await page.getByLabel('Message to the signers (optional)').fill('Hello,\nyour renewal, as agreed.');
    // ADR 3400: and one subject of their invitation e-mails.
    await page.getByLabel('E-mail subject (optional)').fill('  Your 2031 renewal ');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('status').filter({ hasText: '4 rows; 1 problem found.' }).waitFor();
    const rowsTable = page.getByRole('region', { name: 'First rows' });
    await rowsTable.locator('td', { hasText: 'rows[2].signers: the row has no signer_id.' }).waitFor();
    await rowsTable.locator('td', { hasText: 'client-4 <cy@client.example>' }).waitFor();
    // ADR 3390: each row's own title, from the title column (trimmed; an empty cell: none).
    await rowsTable.getByRole('columnheader', { name: 'Title' }).waitFor();
    assert.deepEqual(
      (await rowsTable.locator('tbody tr td:nth-child(2)').allInnerTexts()).map((t) => t.trim()),
      ['Ann’s 2031 renewal', 'Bob’s 2031 renewal', 'none', 'none'],
    );
    assert.equal(await page.locator('#message-text').innerText(), 'Hello,\nyour renewal, as agreed.');
    assert.equal(await page.locator('#subject-text').innerText(), 'Your 2031 renewal');
    await expectAccessible(page, 'bulk send preview');
    await screenshot(page, 'bulk-send-preview');

    await page.getByRole('button', { name: 'Send 4 rows' }).click();
    await page.waitForURL(/\/app\/bulk-sends\/[0-9a-f-]{36}$/);
    progress = page.url();
    // The rows are worked through in the background: reload (the Refresh link) until done.
    await refreshUntilCompleted(500);
    assert.equal(page.url(), progress);
    assert.equal(await page.locator('[data-count="rows"]').textContent(), '4');
    assert.equal(await page.locator('[data-count="created"]').textContent(), '3');
    assert.equal(await page.locator('[data-count="sent"]').textContent(), '3');
    assert.equal(await page.locator('[data-count="failed"]').textContent(), '1');
    const failed = page.getByRole('region', { name: 'Failed rows' });
    await failed.locator('td', { hasText: 'rows[2]' }).first().waitFor();
    assert.match((await failed.textContent()) ?? '', /rows\[2\]\.signers/);
    assert.equal(await page.getByRole('region', { name: 'Requests made' }).getByRole('link').count(), 3);
    await expectAccessible(page, 'bulk send progress');
    await screenshot(page, 'bulk-send-progress');

    // The Requests made are there, sent, each with its row's title.
    await page
      .getByRole('region', { name: 'Requests made' })
      .getByRole('row')
      .filter({ hasText: 'rows[0]' })
      .getByRole('link')
      .click();
    await page.waitForURL(/\/app\/requests\/[0-9a-f-]{36}$/);
    await page.getByText('sent', { exact: true }).first().waitFor();
    assert.match(
      (await page.getByRole('heading', { level: 1 }).innerText()).trim(),
      /^Ann’s 2031 renewal Request /,
    );
    const made = await page.title();
    assert.match(made, /^Ann’s 2031 renewal \(Request [0-9a-f]{8}\)/);
    assert.equal(await page.locator('#message-text').innerText(), 'Hello,\nyour renewal, as agreed.');
    assert.equal(await page.locator('#subject-text').innerText(), 'Your 2031 renewal');
    // It names the bulk send that made it, linked back to its progress (ADR 3510).
    const id = progress.slice(progress.lastIndexOf('/') + 1);
    const back = page.getByRole('link', { name: `${id.slice(0, 8)} (bulk send ${id})` });
    await expectAccessible(page, 'a Request a bulk send made');
    await screenshot(page, 'request-made-by-bulk-send');
    await back.click();
    await page.waitForURL(progress);
  });

  it('lists the bulk send on the Site’s bulk sends, from the Requests page, linking to its progress', async () => {
    assert.ok(progress, 'the bulk send of the test before');
    await page.goto(`${web}/requests`);
    await page.getByRole('link', { name: 'Bulk sends', exact: true }).click();
    await page.getByRole('heading', { name: /^Bulk sends/ }).waitFor();
    assert.equal(page.url(), `${web}/bulk-sends`);
    const rows = page.getByRole('region', { name: 'Bulk sends' }).locator('tbody tr');
    assert.equal(await rows.count(), 1);
    // Started, Templates, Rows, Made, Sent, Failed, Cancelled, State: done by the test before.
    const cells = (await rows.first().locator('td').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(cells.slice(1), ['Service agreement', '4', '3', '3', '1', '—', 'completed']);
    const id = progress.slice(progress.lastIndexOf('/') + 1);
    const link = rows.first().getByRole('link', { name: new RegExp(` UTC \\(bulk send ${id}\\)$`) });
    assert.equal(await link.count(), 1, 'its link named by its start time and its id');
    await expectAccessible(page, 'bulk sends list');
    await screenshot(page, 'bulk-sends-list');

    await link.click();
    await page.waitForURL(progress);
    assert.equal(await page.locator('[data-count="rows"]').textContent(), '4');
    await page.getByRole('link', { name: 'All bulk sends' }).click();
    await page.getByRole('heading', { name: /^Bulk sends/ }).waitFor();
    assert.equal(page.url(), `${web}/bulk-sends`);
  });

  it('cancels a running bulk send from its page (ADR 3450): the rest of its rows left unmade', async () => {
    const ROWS = 40;
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      signers: [
        { signer_id: `paced-${i}`, signer: { email: `paced-${i}@client.example` }, send_to: { email: true } },
      ],
      render_data: { client_name: `Client ${i}` },
    }));
    const started = await setup.json(
      `/v1.1/sites/${setup.site}/bulk_sends`,
      'POST',
      { contracts: [setup.template], send: true, rows },
      202,
    );
    const id = started.id as string;
    const here = `${web}/bulk-sends/${id}`;
    // At once: 5 rows are sent, the others wait on the pace, so the cancel is still offered.
    await page.goto(here);
    await page.getByText('Stop this bulk send…').click();
    const cancel = page.getByRole('button', { name: 'Cancel the remaining rows' });
    await cancel.waitFor();
    assert.match(
      (await page.locator('#cancel-hint').innerText()).replace(/\s+/g, ' '),
      /Requests already made are not cancelled: once it completes, cancel them all on this page\./,
    );
    await expectAccessible(page, 'bulk send progress with its cancel open');
    await screenshot(page, 'bulk-send-cancel');

    await cancel.click();
    await page.waitForURL(`${here}?done=cancelled`);
    await page
      .getByRole('status')
      .filter({ hasText: 'Cancelled: no more rows are made. Rows being made at that moment finish.' })
      .waitFor();
    assert.equal(await page.getByText('Stop this bulk send…').count(), 0, 'no cancel once cancelled');
    await page.locator('[data-count="cancelled"]').waitFor();
    await expectAccessible(page, 'bulk send just cancelled');

    // The rows being made (or waiting on the pace) settle, then it completes: reload until then.
    await refreshUntilCompleted(1_000);
    const count = async (name: string) => Number(await page.locator(`[data-count="${name}"]`).textContent());
    const [made, failed, cancelled] = [
      await count('created'),
      await count('failed'),
      await count('cancelled'),
    ];
    assert.equal(await count('rows'), ROWS);
    assert.ok(cancelled > 0, `rows left unmade (${made} made, ${failed} failed)`);
    assert.equal(made + failed + cancelled, ROWS);
    assert.equal(await count('sent'), made);
    await page
      .getByRole('status')
      .filter({ hasText: /Cancelled .* UTC\. Done .* UTC\./ })
      .waitFor();
    await expectAccessible(page, 'bulk send cancelled and completed');

    // The Site's list says so, with the count.
    await page.getByRole('link', { name: 'All bulk sends' }).click();
    await page.getByRole('heading', { name: /^Bulk sends/ }).waitFor();
    const row = page
      .getByRole('region', { name: 'Bulk sends' })
      .locator('tbody tr')
      .filter({ has: page.getByRole('link', { name: new RegExp(`\\(bulk send ${id}\\)$`) }) });
    const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(cells.slice(2), [
      String(ROWS),
      String(made),
      String(made),
      String(failed),
      String(cancelled),
      'completed cancelled',
    ]);
    await expectAccessible(page, 'bulk sends list with a cancelled one');
  });
});
