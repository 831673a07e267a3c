import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectAccessible, launchChromium, openTab, PHONE, screenshot } from './support/web-app.js';

const PASSWORD = 'password page browser test 42';
const NEW_PASSWORD = 'a different passphrase, 2026';

/**
 * An account holder changes their own password (ADR 2980) in real headless Chromium,
 * against the whole built system: the link in the header, the page's refusals next to
 * their fields, the change, and what it ends (this browser's session, the token made
 * before); the new password signs in.
 */
describe('web application in headless Chromium: changing one’s own password', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  let token: string;
  const owner = 'owner@acme-password.example';

  const signIn = async (password: string) => {
    await page.getByLabel('E-mail').fill(owner);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const requestsWithToken = async () =>
    (
      await fetch(`${system.gatewayUrl}/v1.1/sites/${site}/requests`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).status;
  let site: number;

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_password' });
    web = `${system.gatewayUrl}/app`;
    const { account } = (await system.admin('create-account', '--name', 'Acme password')) as {
      account: { id: string };
    };
    const created = (await system.admin('create-site', '--account', account.id, '--name', 'Production')) as {
      site: { id: number };
    };
    site = created.site.id;
    await system.admin('create-user', '--account', account.id, '--email', owner, '--password', PASSWORD);
    await system.admin('add-member', '--site', String(site), '--user', owner);
    const { app } = (await system.admin('create-app', '--user', owner, '--name', 'Payroll')) as {
      app: { id: string };
    };
    ({ access_token: token } = (await system.admin('create-token', '--app', app.id)) as {
      access_token: string;
    });
    browser = await launchChromium();
    ({ page, problems } = await openTab(browser));
    await page.goto(`${web}/sign-in`);
    await signIn(PASSWORD);
    await page.getByRole('heading', { name: /^Requests/ }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'no console or script errors');
  });

  it('is reached from the header and says what a change ends', async () => {
    await page.getByRole('link', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', /signs you out everywhere/);
    await expectAccessible(page, 'change password form');
    await screenshot(page, 'password');
  });

  it('refuses a second entry that differs, and a wrong current password, next to their fields', async () => {
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(`${NEW_PASSWORD}!`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').getByText('typed differently the second time').waitFor();
    assert.equal(await page.getByLabel('Confirm new password').getAttribute('aria-invalid'), 'true');
    await expectAccessible(page, 'change password, the entries differ');

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').getByText('The current password is wrong; nothing was changed.').waitFor();
    assert.equal(await page.getByLabel('Current password').getAttribute('aria-invalid'), 'true');
    await expectAccessible(page, 'change password, wrong current password');
    await screenshot(page, 'password-wrong');
    assert.equal(await requestsWithToken(), 200, 'nothing was revoked');
  });

  it('changes it, signs this browser out, stops the old token, and the new password signs in', async () => {
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('status').getByText('Your password was changed').waitFor();
    await expectAccessible(page, 'sign-in after a password change');
    await page.goto(`${web}/requests`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/app/sign-in', 'the session ended');

    await signIn(PASSWORD);
    await page.getByRole('alert').getByText('The e-mail address or the password is wrong.').waitFor();
    await signIn(NEW_PASSWORD);
    await page.getByRole('heading', { name: /^Requests/ }).waitFor();

    let status = await requestsWithToken();
    for (let i = 0; i < 120 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      status = await requestsWithToken();
    }
    assert.equal(status, 401, 'the token made before stops within the introspection bound');
  });

  it('fits a phone', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${web}/password`);
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
    await expectAccessible(page, 'change password on a phone');
  });

  it('a forgotten password: the link by e-mail opens a page that sets a new one', async () => {
    const visitor = await openTab(browser);
    await visitor.page.goto(`${web}/sign-in`);
    await visitor.page.getByRole('link', { name: 'Forgotten your password?' }).click();
    await visitor.page.getByRole('heading', { name: 'Forgotten password' }).waitFor();
    await expectAccessible(visitor.page, 'forgotten password form');
    await visitor.page.getByLabel('E-mail').fill(owner);
    await visitor.page.getByRole('button', { name: 'Send the link' }).click();
    await visitor.page
      .getByRole('status')
      .getByText('a link to choose a new password is on its way')
      .waitFor();
    await expectAccessible(visitor.page, 'forgotten password, link sent');
    await screenshot(visitor.page, 'forgot-password');

    const mail = await eventually(
      () =>
        Promise.resolve(
          system.smtp.received.find(
            (m) => m.to.includes(owner) && m.mail.subject === 'Choose a new password',
          ),
        ),
      60_000,
    );
    const link = /http\S+\/app\/reset-password\?token=prt_[A-Za-z0-9_-]+/.exec(mail.mail.text ?? '');
    assert.ok(link, mail.mail.text);
    await visitor.page.goto(link[0]);
    await visitor.page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expectAccessible(visitor.page, 'choose a new password');
    await screenshot(visitor.page, 'reset-password');
    const chosen = 'chosen from the e-mailed link';
    await visitor.page.getByLabel('New password', { exact: true }).fill(chosen);
    await visitor.page.getByLabel('Confirm new password').fill(chosen);
    await visitor.page.getByRole('button', { name: 'Set the new password' }).click();
    await visitor.page.getByRole('status').getByText('Your password was changed').waitFor();
    await visitor.page.getByLabel('E-mail').fill(owner);
    await visitor.page.getByLabel('Password', { exact: true }).fill(chosen);
    await visitor.page.getByRole('button', { name: 'Sign in' }).click();
    await visitor.page.getByRole('heading', { name: /^Requests/ }).waitFor();

    // The link works once: opened again, it says so and offers to ask again.
    await visitor.page.goto(link[0]);
    await visitor.page.getByLabel('New password', { exact: true }).fill('and once more a new one');
    await visitor.page.getByLabel('Confirm new password').fill('and once more a new one');
    await visitor.page.getByRole('button', { name: 'Set the new password' }).click();
    await visitor.page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await expectAccessible(visitor.page, 'a used link');
    await visitor.context.close();
    assert.deepEqual(visitor.problems, []);
  });
});
