import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '@esign/testing';
import { expectAccessible, openTab, PHONE, screenshot } from './support/web-app.js';
import { gatewayCall, PASSWORD, signInAs, webAppAccount, type Account } from './support/web-app-account.js';

/**
 * The web application for account holders in real headless Chromium, against the whole
 * built system as `npm start` runs it (four processes, real Postgres and RabbitMQ, an
 * SMTP server): sign in, Developer Apps and Access Tokens used against the API, a test-mode
 * Request's kept messages, a phone's width; axe-core on every page. Templates, the Requests
 * dashboard and Sites: web-app-templates.test.ts.
 */
describe('web application in headless Chromium: sign in → apps and tokens', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = webAppAccount('web_app');
  let browser: Browser;
  let account: Account;
  let page: Page;
  let web: string;
  before(() => ({ browser, account, page, web } = suite));

  const api = gatewayCall(suite);
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  const signIn = (email: string, password?: string) => signInAs(suite, email, password);

  it('refuses a wrong password with a message next to the field, then signs in', async () => {
    await page.goto(`${web}/`);
    assert.equal(new URL(page.url()).pathname, '/app/sign-in', 'signed out, the app sends you to sign in');
    await expectAccessible(page, 'sign in');
    await screenshot(page, 'sign-in');
    await signIn(account.owner, 'not the password at all');
    assert.equal(new URL(page.url()).pathname, '/app/sign-in');
    const password = page.getByLabel('Password');
    assert.equal(await password.getAttribute('aria-invalid'), 'true');
    assert.match(
      (await page.locator('#password-error').textContent()) ?? '',
      /e-mail address or the password is wrong/,
    );
    await expectAccessible(page, 'sign in refused');

    await signIn(account.owner);
    assert.equal(new URL(page.url()).pathname, '/app/requests');
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'esign_session');
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
  });

  let accessToken: string;
  let appUrl: string;

  it('creates a Developer App and a token with the password; the token works against the API', async () => {
    await nav('Developer Apps').click();
    await expectAccessible(page, 'apps (empty)');
    await page.getByRole('button', { name: 'Create app' }).click();
    assert.equal(await page.getByLabel('Name').getAttribute('aria-invalid'), 'true', 'a name is needed');
    await page.getByLabel('Name').fill('Nightly export');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nightly export' }).waitFor();
    appUrl = page.url();
    await expectAccessible(page, 'app');

    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Create token' }).click();
    assert.match((await page.locator('#token-password-error').textContent()) ?? '', /wrong/);
    assert.equal(
      await page.getByRole('textbox', { name: 'Access token', exact: true }).count(),
      0,
      'no token for a wrong password',
    );

    await page.getByLabel('Token name (optional)').fill('prod');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create token' }).click();
    const field = page.getByRole('textbox', { name: 'Access token', exact: true });
    assert.equal(await field.getAttribute('readonly'), '');
    accessToken = await field.inputValue();
    assert.match(accessToken, /^eyJ/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    await expectAccessible(page, 'token created');
    await screenshot(page, 'token-created');

    const template = await api(accessToken, 'POST', `/v1.1/sites/${account.production}/contracts`, {
      type: 'html',
      name: 'Token check',
      html: '<p>Hello {{name}}</p>',
    });
    assert.equal(template.status, 201, JSON.stringify(template.body));
    assert.equal(
      (await api(accessToken, 'POST', `/v1.1/contracts/${String(template.body!.id)}/publish`)).status,
      200,
    );
    const created = await api(accessToken, 'POST', `/v1.1/sites/${account.production}/requests`, {
      contracts: [template.body!.id],
      signers: [{ signer_id: 'client-1' }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));

    // Shown once: the form's answer was a redirect to the app's page (ADR 3210), so a
    // reload shows that page again, without the token, and makes no second token.
    assert.equal(page.url(), appUrl);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Nightly export' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Access token', exact: true }).count(), 0);
    assert.equal(
      await page.getByRole('cell', { name: 'prod', exact: true }).count(),
      1,
      'one token, not two',
    );
  });

  it('revokes the token; the API then answers 401', async () => {
    await page.getByRole('button', { name: /^Revoke token prod/ }).click();
    await page.getByText('revoked').first().waitFor();
    await expectAccessible(page, 'token revoked');
    await eventually(async () => {
      const answer = await api(accessToken, 'GET', `/v1.1/sites/${account.production}/requests`);
      return answer.status === 401 ? answer : undefined;
    }, 20_000);
  });

  let testToken = '';
  let templateOfTestToken = 0;
  it('issue #22: creates a test-only token, listed as such, which the API refuses a real Request', async () => {
    await page.getByLabel('Token name (optional)').fill('ci tests');
    await page.getByLabel(/^Test-only/).check();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create token' }).click();
    testToken = await page.getByRole('textbox', { name: 'Access token', exact: true }).inputValue();
    const row = page.getByRole('row', { name: /ci tests/ });
    await row.getByRole('cell', { name: 'Test-only', exact: true }).waitFor();
    await expectAccessible(page, 'test-only token created');
    await screenshot(page, 'token-test-only');
    const template = await api(testToken, 'POST', `/v1.1/sites/${account.production}/contracts`, {
      type: 'html',
      name: 'Test-only check',
      html: '<p>Hello</p>',
    });
    await api(testToken, 'POST', `/v1.1/contracts/${String(template.body!.id)}/publish`);
    templateOfTestToken = template.body!.id as number;
    const body = { contracts: [template.body!.id], signers: [{ signer_id: 'client-2' }] };
    const real = await api(testToken, 'POST', `/v1.1/sites/${account.production}/requests`, body);
    assert.equal(real.status, 403);
    assert.equal(real.body!.code, 'test_mode_only_token');
    const test = await api(testToken, 'POST', `/v1.1/sites/${account.production}/requests`, {
      ...body,
      test_mode: true,
    });
    assert.equal(test.status, 201, JSON.stringify(test.body));
  });

  it('issue #22: shows on its page what a sent test-mode Request would have sent', async () => {
    const created = await api(testToken, 'POST', `/v1.1/sites/${account.production}/requests`, {
      contracts: [templateOfTestToken],
      signers: [{ signer_id: 'tess@client.example', send_to: { email: true } }],
      test_mode: true,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = String(created.body!.id);
    assert.equal((await api(testToken, 'POST', `/v1.1/requests/${id}/send`)).status, 200);
    await eventually(
      async () => {
        await page.goto(`${web}/requests/${id}`);
        return (await page.getByRole('row', { name: /tess@client\.example/ }).count()) > 1 ? true : undefined;
      },
      60_000,
      500,
    );
    await page.getByRole('heading', { name: 'Messages kept (test mode)' }).waitFor();
    await page.locator('summary').first().click();
    assert.match((await page.locator('pre.message-body').first().textContent()) ?? '', /\/sign\?/);
    await expectAccessible(page, 'test-mode Request with its kept messages');
    await screenshot(page, 'request-test-messages');
  });

  it('fits a phone: the app page at 390 px has no sideways scroll', async () => {
    const phone = await openTab(browser, PHONE);
    await phone.context.addCookies(await page.context().cookies());
    await phone.page.goto(appUrl);
    const overflow = await phone.page.evaluate<number>(
      'document.documentElement.scrollWidth - window.innerWidth',
    );
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
    await expectAccessible(phone.page, 'app on a phone');
    await phone.context.close();
  });
});
