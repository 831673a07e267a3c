import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectAccessible, launchChromium, openTab, PHONE, screenshot } from './support/web-app.js';

const PASSWORD = 'site settings browser test 42';

/**
 * An account admin renames a Site (ADR 3070) and the account (ADR 3080), and chooses a Site's signers' language (ADR 2320)
 * on the Sites page, in real headless Chromium against the whole built system: a taken
 * name refused beside its field, then the change, which the Site switch in the header and
 * the API show at once.
 */
describe('web application in headless Chromium: the account’s and a Site’s name, a Site’s signers’ language', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let sites: { production: number; development: number };
  const owner = 'owner@acme-sites.example';

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_site_settings' });
    const { account } = (await system.admin('create-account', '--name', 'Acme sites')) as {
      account: { id: string };
    };
    const made = async (name: string) =>
      (
        (await system.admin('create-site', '--account', account.id, '--name', name)) as {
          site: { id: number };
        }
      ).site.id;
    sites = { production: await made('Production'), development: await made('Development') };
    await system.admin('create-user', '--account', account.id, '--email', owner, '--password', PASSWORD);
    for (const site of Object.values(sites))
      await system.admin('add-member', '--site', String(site), '--user', owner);
    browser = await launchChromium();
    ({ page, problems } = await openTab(browser));
    await page.goto(`${system.gatewayUrl}/app/sign-in`);
    await page.getByLabel('E-mail').fill(owner);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
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

  it('refuses another Site’s name beside the field, keeping what was typed', async () => {
    await page.getByRole('link', { name: 'Sites', exact: true }).click();
    await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await page.getByLabel('Name of Development').fill('Production');
    await page.getByRole('button', { name: 'Save Development' }).click();
    await page.getByRole('alert').waitFor();
    const name = page.getByLabel('Name of Development');
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    assert.equal(await name.inputValue(), 'Production');
    await expectAccessible(page, 'sites with a refused name');
  });

  it('renames the account (ADR 3080): the page names it at once', async () => {
    await page.getByLabel('Name of the account').fill('Acme sites, renamed');
    await page.getByRole('button', { name: 'Rename the account' }).click();
    await page.getByText('The account was renamed.').waitFor();
    await page.getByText('Your account is Acme sites, renamed.').waitFor();
    assert.equal(await page.getByLabel('Name of the account').inputValue(), 'Acme sites, renamed');
  });

  it('renames the Site and sets its signers’ language: the page and the header’s Site switch show them at once', async () => {
    await page.getByLabel('Name of Development').fill('Staging');
    await page.getByLabel('Signers’ language when their entry names none').nth(1).selectOption('fr');
    await page.getByRole('button', { name: 'Save Development' }).click();
    await page.getByText('The Site’s settings were saved.').waitFor();
    await page.getByRole('heading', { name: /^Staging/, level: 3 }).waitFor();
    assert.deepEqual(
      (await page.getByLabel('Site', { exact: true }).locator('option').allTextContents()).map((t) =>
        t.trim(),
      ),
      [`Production (${sites.production})`, `Staging (${sites.development})`],
      'the Site switch in the header',
    );
    assert.equal(
      await page.getByLabel('Signers’ language when their entry names none').nth(1).inputValue(),
      'fr',
    );
    await expectAccessible(page, 'sites after saving');
    await screenshot(page, 'sites-settings');
    await page.setViewportSize(PHONE);
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok((await overflow()) <= 0, `the page is ${await overflow()}px wider than the phone`);
    await expectAccessible(page, 'sites on a phone');
  });
});
