import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import type { GatewayJson } from './support/sent-request.js';
import {
  expectAccessible,
  launchChromium,
  signedInTab,
  ownerWithTemplate,
  screenshot,
} from './support/web-app.js';

const PASSWORD = 'template filter browser test password 42';
const FIELDS = [{ name: 'signature', type: 'signature' }];
/** Ten published templates: past the eight from which the boxes get their filter. */
const MORE = [
  'NDA mutual',
  'NDA one-way',
  'Employment offer',
  'Lease renewal',
  'Lease termination',
  'Consulting agreement',
  'Purchase order',
  'Privacy consent',
  'Photo permission',
];

/**
 * The "Find a template" filter over the template boxes of New Request and bulk send, in
 * real headless Chromium against the whole built system: it narrows the boxes by name or
 * id, keeps a ticked one shown, says how many are shown, does not send the form on Enter,
 * and the form still creates the Request with the ticked template; without script the
 * filter is not shown and every box is.
 */
describe('web application in headless Chromium: finding a template among many', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  let json: GatewayJson;
  const ids = new Map<string, number>();

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_template_filter' });
    web = `${system.gatewayUrl}/app`;
    const owner = 'owner@acme-template-filter.example';
    const made = await ownerWithTemplate(system, {
      account: 'Acme template filter',
      owner,
      password: PASSWORD,
      template: { name: 'Service agreement', html: '<p>Agreement with {{client_name}}</p>', fields: FIELDS },
    });
    json = made.json;
    ids.set('Service agreement', made.template);
    for (const name of MORE) {
      const created = await json(
        `/v1.1/sites/${made.site}/contracts`,
        'POST',
        { type: 'html', name, html: `<p>${name}</p>`, fields: FIELDS },
        201,
      );
      await json(`/v1.1/contracts/${String(created.id)}/publish`, 'POST');
      ids.set(name, created.id as number);
    }

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

  const filter = () => page.getByRole('searchbox', { name: 'Find a template' });
  const status = () => page.locator('#contracts-filter-status');
  /** The names of the templates whose boxes are shown, in the page's order. */
  const shown = async (): Promise<string[]> => {
    const texts = await page.locator('#contracts > label:visible').allTextContents();
    return texts.map((t) => [...ids.keys()].find((name) => t.trim().startsWith(name)) ?? t).sort();
  };
  /** What a filter `q` should show: names or ids holding it, in any case, and the ticked ones. */
  const expected = (q: string, ticked: readonly string[] = []): string[] =>
    [...ids]
      .filter(
        ([name, id]) => ticked.includes(name) || `${name} ${id}`.toLowerCase().includes(q.toLowerCase()),
      )
      .map(([name]) => name)
      .sort();

  it('narrows the boxes by name or id, keeps a ticked one, and the form still creates the Request', async () => {
    await page.getByRole('link', { name: 'New Request' }).first().click();
    await page.getByRole('heading', { name: /^New Request/ }).waitFor();
    await filter().waitFor();
    assert.equal(await filter().getAttribute('name'), null, 'the filter is never posted');
    assert.equal((await status().textContent())?.trim(), 'Showing 10 of 10 templates.');
    assert.equal((await shown()).length, 10);

    await filter().fill('  LEASE ');
    assert.deepEqual(await shown(), ['Lease renewal', 'Lease termination']);
    assert.equal(await status().textContent(), 'Showing 2 of 10 templates.');
    await page.getByRole('checkbox', { name: /Lease renewal/ }).check();

    await filter().fill('nda');
    assert.deepEqual(await shown(), ['Lease renewal', 'NDA mutual', 'NDA one-way'], 'the ticked one stays');
    assert.equal(await status().textContent(), 'Showing 3 of 10 templates.');
    await filter().fill('no such template');
    assert.deepEqual(await shown(), ['Lease renewal']);
    assert.equal(await status().textContent(), 'Showing 1 of 10 templates.');

    const photo = String(ids.get('Photo permission'));
    await filter().fill(photo);
    assert.deepEqual(await shown(), expected(photo, ['Lease renewal']), 'by id');
    assert.ok((await shown()).includes('Photo permission'));

    await filter().fill('nda');
    await filter().press('Enter');
    assert.match(page.url(), /\/app\/requests\/new$/, 'Enter does not send the form');
    const form = page.locator('form', { has: page.locator('#contracts') });
    assert.equal(await form.getAttribute('data-busy'), null, 'the form was not submitted');
    assert.deepEqual(await shown(), ['Lease renewal', 'NDA mutual', 'NDA one-way']);
    await expectAccessible(page, 'the New Request form with a template filter in use');
    await filter().blur();
    await screenshot(page, 'template-filter');

    await page.getByRole('group', { name: 'Signer 1' }).getByLabel('Signer id').fill('ann@client.example');
    await page.getByRole('checkbox', { name: /^Send now/ }).uncheck();
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.waitForURL(/\/app\/requests\/[0-9a-f-]{36}\?done=created$/);
    const id = /\/app\/requests\/([0-9a-f-]{36})/.exec(page.url())?.[1];
    const created = await json(`/v1.1/requests/${String(id)}`);
    assert.deepEqual(created.contracts, [ids.get('Lease renewal')], 'only the ticked template, once');
  });

  it('shows every box again when the filter is emptied', async () => {
    await page.goto(`${web}/requests/new`);
    await filter().fill('purchase');
    assert.deepEqual(await shown(), ['Purchase order']);
    await filter().fill('');
    assert.equal((await shown()).length, 10);
    assert.equal(await status().textContent(), 'Showing 10 of 10 templates.');
  });

  it('is on the bulk-send form too', async () => {
    await page.goto(`${web}/bulk-sends/new`);
    await page.getByRole('heading', { name: /^Bulk send from a CSV file/ }).waitFor();
    await filter().fill('Privacy');
    assert.deepEqual(await shown(), ['Privacy consent']);
    assert.equal(await status().textContent(), 'Showing 1 of 10 templates.');
    await expectAccessible(page, 'the bulk send form with a template filter in use');
  });

  it('without script: no filter is shown, and every box is', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(await page.context().cookies());
    const bare = await context.newPage();
    await bare.goto(`${web}/requests/new`);
    await bare.getByRole('heading', { name: /^New Request/ }).waitFor();
    assert.equal(await bare.locator('#contracts-filter').isVisible(), false);
    assert.equal(await bare.locator('#contracts > label:visible').count(), 10);
    await context.close();
  });
});
