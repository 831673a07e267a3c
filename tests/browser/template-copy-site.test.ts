import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectAccessible, launchChromium, openTab, screenshot, userApi } from './support/web-app.js';

const PASSWORD = 'template copy to site browser test 42';

/**
 * A contract template tried out in a test Site copied to the production one (Copy to
 * another Site, `POST /v1.1/contracts/:id/copy` with `site_id`), in real headless
 * Chromium against the whole built system: a Site the owner does not reach refused at the
 * select, then the copy made in Production under the same name, which becomes the current
 * Site, the page landed on being the copy's; axe-core on each page.
 */
describe('web application in headless Chromium: a template copied to another Site', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  let sites: { development: number; production: number };
  let templateId: number;
  const owner = 'owner@acme-copy-site.example';

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_template_copy_site' });
    web = `${system.gatewayUrl}/app`;
    const { account } = (await system.admin('create-account', '--name', 'Acme copy to site')) as {
      account: { id: string };
    };
    const made = async (name: string) =>
      (
        (await system.admin('create-site', '--account', account.id, '--name', name)) as {
          site: { id: number };
        }
      ).site.id;
    // Development first: the lowest id is the Site the pages show first.
    sites = { development: await made('Development'), production: await made('Production') };
    await system.admin('create-user', '--account', account.id, '--email', owner, '--password', PASSWORD);
    for (const site of Object.values(sites))
      await system.admin('add-member', '--site', String(site), '--user', owner);
    // The template tried out in Development, published there.
    const json = await userApi(system, owner);
    const contract = await json(
      `/v1.1/sites/${sites.development}/contracts`,
      'POST',
      { type: 'html', name: 'Service agreement', html: '<p>Agreement with {{client_name}}</p>' },
      201,
    );
    templateId = contract.id as number;
    await json(`/v1.1/contracts/${templateId}/publish`, 'POST');

    browser = await launchChromium();
    ({ page, problems } = await openTab(browser));
    await page.goto(`${web}/sign-in`);
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

  const siteTo = () => page.getByLabel('Site to copy to');
  const currentSite = () => page.getByLabel('Site', { exact: true });

  it('offers the owner’s other Site, and refuses one they do not reach at the select', async () => {
    await page.goto(`${web}/templates/${templateId}`);
    await page.getByRole('heading', { level: 1, name: 'Service agreement published' }).waitFor();
    assert.equal(await currentSite().inputValue(), String(sites.development));
    await page.getByRole('heading', { level: 2, name: 'Copy to another Site' }).waitFor();
    assert.deepEqual(
      (await siteTo().locator('option').allTextContents()).map((t) => t.trim()),
      [`Production (${sites.production})`],
      'the other Site only',
    );
    await page.getByText('A draft with this template’s content is made in the Site you choose').waitFor();
    await expectAccessible(page, 'a template with Copy to another Site');
    await screenshot(page, 'template-copy-to-site');

    // A Site of no one's here (as a stale page or a forged form would send).
    await page.evaluate(
      "document.getElementById('copy-site').append(Object.assign(document.createElement('option'), { value: '999999', textContent: 'Gone' }))",
    );
    await siteTo().selectOption('999999');
    await page.getByRole('button', { name: 'Copy to Site' }).click();
    await page.getByRole('alert').getByText('no site 999999 that this credential reaches').waitFor();
    assert.equal(await siteTo().getAttribute('aria-invalid'), 'true');
    assert.match((await siteTo().getAttribute('aria-describedby')) ?? '', /copy-site-error/);
    await page.locator('#copy-site-error').getByText('no site 999999 that this credential reaches').waitFor();
    assert.equal(await currentSite().inputValue(), String(sites.development), 'still the current Site');
    await expectAccessible(page, 'Copy to another Site refused');
  });

  it('copies it to Production under the same name, and lands on the copy there, Production current', async () => {
    // The form shown again (its key kept), now with a Site the owner reaches.
    await siteTo().selectOption(String(sites.production));
    await page.getByRole('button', { name: 'Copy to Site' }).click();
    await page
      .getByRole('status')
      .filter({
        hasText: 'A draft copy was made in Production. Edit it, then publish it to use it in Requests.',
      })
      .waitFor();
    await page.getByRole('heading', { level: 1, name: 'Service agreement draft' }).waitFor();
    const copyUrl = page.url().replace(/\?.*$/, '');
    const copyId = Number(/\/templates\/(\d+)$/.exec(copyUrl)?.[1]);
    assert.ok(copyId > templateId, copyUrl);
    assert.equal(page.url(), `${copyUrl}?done=copied_to_site`);
    assert.equal(await currentSite().inputValue(), String(sites.production), 'the header shows Production');
    await expectAccessible(page, 'the copy just made in another Site');

    // Production's templates list it; Development's still has the published source only.
    await page.getByRole('link', { name: 'Templates', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: /^Contract templates on Production/ }).waitFor();
    await page.getByRole('link', { name: 'Service agreement', exact: true }).click();
    assert.equal(page.url(), copyUrl);
    await currentSite().selectOption(String(sites.development));
    await page.getByRole('button', { name: 'Switch', exact: true }).click();
    await page.goto(`${web}/templates`);
    await page.getByRole('heading', { level: 1, name: /^Contract templates on Development/ }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Service agreement', exact: true }).count(), 1);
  });
});
