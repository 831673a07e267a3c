import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import {
  expectAccessible,
  launchChromium,
  openTab,
  PHONE,
  screenshot,
  ownerWithTemplate,
} from './support/web-app.js';

const PASSWORD = 'new request browser test password 42';

/**
 * New Request in real headless Chromium, against the whole built system: one signer told
 * by e-mail and sent at once, who may ask someone else to sign in their place (ADR 3560),
 * landing on the Request's page with its Execution URL; a bad
 * e-mail address shown beside its row's field; a refused reminder interval beside its field;
 * a fourth signer row added; the form on a phone.
 */
describe('web application in headless Chromium: New Request', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_new_request' });
    web = `${system.gatewayUrl}/app`;
    const owner = 'owner@acme-new-request.example';
    await ownerWithTemplate(system, {
      account: 'Acme new request',
      owner,
      password: PASSWORD,
      template: {
        name: 'Service agreement',
        html: '<p>Agreement with {{client_name}}</p>',
        fields: [{ name: 'signature', type: 'signature' }],
      },
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

  const signer = (n: number) => page.getByRole('group', { name: `Signer ${n}` });

  it('creates and sends a Request to one signer told by e-mail, and shows it with its Execution URL', async () => {
    await page.getByRole('link', { name: 'New Request' }).first().click();
    await page.getByRole('heading', { name: /^New Request/ }).waitFor();
    await expectAccessible(page, 'the New Request form');
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    await signer(1).getByLabel('Signer id').fill('ann@client.example');
    assert.ok(await signer(1).getByLabel('Notify by e-mail').isChecked(), 'e-mail is ticked by default');
    assert.equal(await page.getByLabel('signature').inputValue(), '1', 'the field goes to Signer 1');
    await page.getByLabel('Render data (optional)').fill('client_name=Ann Lee');
    await page.getByLabel('CC (optional)').fill('Legal@client.example, ops@client.example');
    await page.getByLabel('Message to the signers (optional)').fill('Hello Ann,\nplease sign by Friday.');
    await page.getByRole('checkbox', { name: /^Send now/ }).check();
    const reassign = page.getByRole('checkbox', {
      name: 'Signers may ask someone else to sign in their place',
    });
    assert.equal(await reassign.isChecked(), false, 'not allowed unless asked for');
    await reassign.check();
    const interval = page.getByLabel('Remind every … days (optional)');
    await interval.fill('3');
    // Left focused, the field is scrolled back into view when the full-page screenshot
    // restores the viewport, and the click below would land beside the button.
    await interval.blur();
    await screenshot(page, 'request-new');
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.waitForURL(/\/app\/requests\/[0-9a-f-]{36}\?done=created-sent$/);
    await page.getByRole('status').filter({ hasText: 'The Request was created and sent' }).waitFor();
    await page.getByText('sent', { exact: true }).first().waitFor();
    await page.getByRole('rowheader', { name: 'ann@client.example' }).waitFor();
    const url = await page
      .getByRole('textbox', { name: 'Execution URL for ann@client.example', exact: true })
      .inputValue();
    assert.match(url, /\/sign\?r=[0-9a-f-]{36}&s=[^&]+&signature=/);
    // Automatic reminders (ADR 3130): the interval, and the next one three days after the send.
    const reminders = page.locator('dt', { hasText: 'Automatic reminders' }).locator('+ dd');
    assert.match((await reminders.textContent()) ?? '', /every 3 days;\s*next \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    // The carbon copies (ADR 3230), as the API stored them.
    const copies = page.locator('dt', { hasText: 'Copies to' }).locator('+ dd');
    assert.match((await copies.textContent()) ?? '', /legal@client\.example, ops@client\.example/);
    // The message to the signers (ADR 3380), its line break kept.
    assert.equal(
      await page
        .getByRole('region', { name: 'Message to the signers' })
        .locator('.signer-message')
        .textContent(),
      'Hello Ann,\nplease sign by Friday.',
    );
    // Reassignment (ADR 3560), as asked for.
    const reassignFact = page.locator('dt', { hasText: 'Signers may reassign' }).locator('+ dd');
    assert.equal(
      (await reassignFact.textContent())?.trim(),
      'Yes — a signer may ask someone else to sign in their place',
    );
    await expectAccessible(page, 'the Request page with automatic reminders');
  });

  it('refuses a reminder interval outside 1 to 30 beside its field, keeping what was typed', async () => {
    await page.goto(`${web}/requests/new`);
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    await signer(1).getByLabel('Signer id').fill('ann@client.example');
    const field = page.getByLabel('Remind every … days (optional)');
    assert.equal(await field.getAttribute('type'), 'number');
    await field.fill('31');
    await page.getByRole('button', { name: 'Create Request' }).click();
    const error = page.locator('#reminder_interval_days-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /from 1 to 30/);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await field.inputValue(), '31');
    await page
      .getByRole('alert')
      .getByRole('link', { name: /^Remind every … days:/ })
      .waitFor();
    await expectAccessible(page, 'the New Request form with a refused reminder interval');
  });

  it('shows a bad e-mail address beside that row’s field, keeping what was typed', async () => {
    await page.goto(`${web}/requests/new`);
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    await signer(1).getByLabel('Signer id').fill('ann@client.example');
    await signer(2).getByLabel('Signer id').fill('client-2');
    await signer(2).getByLabel('E-mail address').fill('bob@');
    await page.getByRole('button', { name: 'Create Request' }).click();
    const error = page.locator('#email_2-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /\S/);
    assert.equal(await signer(2).getByLabel('E-mail address').getAttribute('aria-invalid'), 'true');
    assert.equal(await signer(2).getByLabel('E-mail address').inputValue(), 'bob@');
    assert.equal(await signer(1).getByLabel('Signer id').inputValue(), 'ann@client.example');
    await page
      .getByRole('alert')
      .getByRole('link', { name: /^Signer 2 e-mail address:/ })
      .waitFor();
    await expectAccessible(page, 'the New Request form with an error');
  });

  it('adds a fourth signer row, keeping what was typed, and gives the field to that signer', async () => {
    await page.goto(`${web}/requests/new`);
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    await signer(1).getByLabel('Signer id').fill('ann@client.example');
    await page.getByRole('button', { name: 'Add a signer' }).click();
    await signer(4).waitFor();
    assert.match(page.url(), /#signer_id_4$/, 'the page opens on the new row');
    assert.equal(await signer(1).getByLabel('Signer id').inputValue(), 'ann@client.example');
    assert.ok(await page.getByRole('checkbox', { name: /Service agreement/ }).isChecked());
    await expectAccessible(page, 'the New Request form with a fourth signer');
    await signer(4).getByLabel('Signer id').fill('dee@client.example');
    await page.getByLabel('signature').selectOption('4');
    await page.getByLabel('Render data (optional)').fill('client_name=Dee');
    await page.getByRole('checkbox', { name: /^Send now/ }).uncheck();
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.waitForURL(/\/app\/requests\/[0-9a-f-]{36}\?done=created$/);
    for (const id of ['ann@client.example', 'dee@client.example'])
      await page.getByRole('rowheader', { name: id }).waitFor();
  });

  it('fits a phone: the form at 390 px has no sideways scroll', async () => {
    const phone = await openTab(browser, PHONE);
    await phone.context.addCookies(await page.context().cookies());
    await phone.page.goto(`${web}/requests/new`);
    await phone.page.getByRole('heading', { name: /^New Request/ }).waitFor();
    const overflow = await phone.page.evaluate<number>(
      'document.documentElement.scrollWidth - window.innerWidth',
    );
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
    await expectAccessible(phone.page, 'the New Request form on a phone');
    await phone.context.close();
    assert.deepEqual(phone.problems, []);
  });
});
