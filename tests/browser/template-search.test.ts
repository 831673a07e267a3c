import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import type { GatewayJson } from './support/sent-request.js';
import {
  expectAccessible,
  launchChromium,
  openTab,
  ownerWithTemplate,
  screenshot,
} from './support/web-app.js';

const PASSWORD = 'template search browser test password 42';

/**
 * The Templates page's search by name, in real headless Chromium, against the whole built
 * system: part of a name in another case lists only the templates whose name contains it
 * (`%` taken literally), the search kept in the field, an empty result said, and the search
 * cleared; axe-core on each page.
 */
describe('web application in headless Chromium: templates searched by name', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  let json: GatewayJson;
  let site: number;

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_template_search' });
    web = `${system.gatewayUrl}/app`;
    const owner = 'owner@acme-template-search.example';
    ({ json, site } = await ownerWithTemplate(system, {
      account: 'Acme template search',
      owner,
      password: PASSWORD,
      template: { name: 'Service agreement', html: '<p>Agreement with {{client_name}}</p>' },
    }));
    for (const name of ['Mutual NDA', 'Consulting Agreement 2031', 'Discount of 100% offer'])
      await json(`/v1.1/sites/${site}/contracts`, 'POST', { type: 'html', name, html: '<p>Terms</p>' }, 201);

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

  const templateLink = (name: string) => page.getByRole('link', { name, exact: true });
  const searchBox = () => page.getByRole('searchbox', { name: 'Search' });
  const search = async (text: string) => {
    await searchBox().fill(text);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };

  it('lists only the templates whose name contains the search, in any case, and keeps it', async () => {
    await page.goto(`${web}/templates`);
    await page.getByRole('heading', { level: 1, name: /^Contract templates/ }).waitFor();
    await templateLink('Mutual NDA').waitFor();
    await search('  AGREEM ');
    await page.getByRole('status').filter({ hasText: '2 templates whose name contains “AGREEM”.' }).waitFor();
    assert.equal(page.url(), `${web}/templates?q=++AGREEM+`);
    await templateLink('Service agreement').waitFor();
    await templateLink('Consulting Agreement 2031').waitFor();
    assert.equal(await templateLink('Mutual NDA').count(), 0, 'the search leaves out the others');
    assert.equal(await page.locator('tbody tr').count(), 2);
    assert.equal(await searchBox().inputValue(), 'AGREEM', 'kept in the field, trimmed');
    await expectAccessible(page, 'the templates searched');
    await screenshot(page, 'template-search');

    await page.getByRole('link', { name: 'Clear the search' }).click();
    assert.equal(page.url(), `${web}/templates`);
    await templateLink('Mutual NDA').waitFor();
    assert.equal(await page.locator('tbody tr').count(), 4);
    assert.equal(await searchBox().inputValue(), '');
  });

  it('takes % literally, and says when nothing matches', async () => {
    await page.goto(`${web}/templates`);
    await search('0% O');
    await page.getByRole('status').filter({ hasText: '1 template whose name contains “0% O”.' }).waitFor();
    await templateLink('Discount of 100% offer').waitFor();
    assert.equal(await page.locator('tbody tr').count(), 1);

    await search('NDA%');
    await page.getByText('No templates whose name contains “NDA%”.').waitFor();
    assert.equal(await page.locator('tbody tr').count(), 0);
    await page.getByRole('link', { name: 'Clear the search' }).waitFor();
    await expectAccessible(page, 'a search that finds nothing');
  });
});
