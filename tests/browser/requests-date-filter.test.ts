import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { sentRequestOf } from './support/sent-request.js';
import {
  expectAccessible,
  launchChromium,
  openTab,
  ownerWithTemplate,
  screenshot,
} from './support/web-app.js';

const PASSWORD = 'requests by date browser test password 42';
const DAY = 24 * 60 * 60 * 1000;
/** The UTC day `days` from now, `YYYY-MM-DD`. */
const utcDay = (days: number): string => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/**
 * The Requests page's "Created" filter, in real headless Chromium, against the whole built
 * system: a Request made through the API today is listed by a range of UTC days that
 * includes today, the dates kept in the fields and the address, and cleared by their link;
 * a range in the past lists nothing and says so; an end not after the start is said next to
 * "Created before". axe-core on each page.
 */
describe('web application in headless Chromium: Requests filtered by the day created', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  let requestId: string;

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_requests_by_date' });
    web = `${system.gatewayUrl}/app`;
    const owner = 'owner@acme-requests-by-date.example';
    const { json, site, template } = await ownerWithTemplate(system, {
      account: 'Acme requests by date',
      owner,
      password: PASSWORD,
      template: {
        name: 'Service agreement',
        html: '<p>Agreement with {{client_name}}</p>',
        fields: [{ name: 'signature', type: 'signature' }],
      },
    });
    requestId = await sentRequestOf(json, site, template, 'ann@client.example', {
      render_data: { client_name: 'Ann Lee' },
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

  const requestLink = () =>
    page.getByRole('link', { name: `${requestId.slice(0, 8)} (Request ${requestId})` });
  const fromField = () => page.getByLabel('Created on or after');
  const beforeField = () => page.getByLabel('Created before');
  const filter = async (from: string, to: string) => {
    await fromField().fill(from);
    await beforeField().fill(to);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/created_from=/);
  };

  it('lists a Request created today by a range of days that includes today, and clears the dates', async () => {
    await page.goto(`${web}/requests`);
    await requestLink().waitFor();
    const [from, to] = [utcDay(-1), utcDay(1)];
    await filter(from, to);
    assert.equal(page.url(), `${web}/requests?q=&state=&created_from=${from}&created_before=${to}`);
    await page
      .getByRole('status')
      .filter({ hasText: /^\s*1\s+Request created from \d{1,2} \w{3} \d{4} to before \d{1,2} \w{3} \d{4}\./ })
      .waitFor();
    await requestLink().waitFor();
    assert.equal(await page.locator('tbody tr').count(), 1);
    assert.equal(await fromField().inputValue(), from, 'kept in the field');
    assert.equal(await beforeField().inputValue(), to, 'kept in the field');
    await page.getByText('Not including this day. Dates are in UTC.').waitFor();
    await expectAccessible(page, 'the Requests created in a range of days');
    await screenshot(page, 'requests-by-date');

    await page.getByRole('link', { name: 'Clear the dates' }).click();
    assert.equal(page.url(), `${web}/requests`);
    await requestLink().waitFor();
    assert.equal(await fromField().inputValue(), '');
  });

  it('says when no Request was created in a range of days in the past', async () => {
    await page.goto(`${web}/requests`);
    await filter('2020-01-01', '2020-02-01');
    await page.getByText('No Requests created from 1 Jan 2020 to before 1 Feb 2020.').waitFor();
    assert.equal(await page.locator('tbody tr').count(), 0);
    await expectAccessible(page, 'a range of days with no Request');
    await page.getByRole('link', { name: 'Clear the filter' }).click();
    await requestLink().waitFor();
  });

  it('says an end that is not after the start next to “Created before”', async () => {
    await page.goto(`${web}/requests`);
    await filter(utcDay(0), utcDay(-1));
    const error = page.locator('#created_before-error');
    await error.filter({ hasText: 'Created before must be a later day than Created on or after' }).waitFor();
    assert.equal(await beforeField().getAttribute('aria-invalid'), 'true');
    assert.equal(await beforeField().inputValue(), utcDay(-1), 'kept in the field to correct');
    // Listed without the end: from today on.
    await requestLink().waitFor();
    await expectAccessible(page, 'an end not after the start');
  });
});
