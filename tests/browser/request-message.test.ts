import assert from 'node:assert/strict';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'request message browser test password 42';
const SIGNER = 'ann@client.example';
const TYPED = 'Hello Ann,\nplease sign by Friday. <b>Thanks</b>';
const CHANGED = 'Hello Ann,\nplease sign by Monday instead.\n\n— Acme';

/**
 * A Request's **message to its signers** (ADR 3380) in real headless Chromium, against the
 * whole built system: a draft made through New Request with a two-line message, the message
 * on its page as text with its line breaks, changed and removed there; a sent Request's
 * message shown with no form; axe-core on both pages.
 */
describe('web application in headless Chromium: a Request’s message to its signers', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_request_message',
    account: 'Acme request message',
    owner: 'owner@acme-request-message.example',
    password: PASSWORD,
    signer: SIGNER,
    request: { message: 'Sent with\na message' },
  });
  const region = () => suite.page.getByRole('region', { name: 'Message to the signers' });
  const shown = () => region().locator('.signer-message');

  it('creates a draft with a two-line message, shows it, changes it and removes it', async () => {
    const page = suite.page;
    await page.goto(suite.url.replace(/\/requests\/[^/]+$/, '/requests/new'));
    await page.getByRole('heading', { name: /^New Request/ }).waitFor();
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    await page.getByRole('group', { name: 'Signer 1' }).getByLabel('Signer id').fill(SIGNER);
    const field = page.getByLabel('Message to the signers (optional)');
    assert.equal(await field.getAttribute('maxlength'), '2000');
    await field.fill(TYPED);
    await page.getByRole('checkbox', { name: /^Send now/ }).uncheck();
    await expectAccessible(page, 'the New Request form with a message');
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.waitForURL(/\/app\/requests\/[0-9a-f-]{36}\?done=created$/);
    await page.locator('h1 .state-draft').waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).message, TYPED, 'in the API');

    // Shown as text, its line break kept (white-space: pre-wrap), never as markup.
    assert.equal(await shown().textContent(), TYPED);
    // Run in the page: its window's getComputedStyle (this project has no DOM typings).
    const whiteSpace = await shown().evaluate(
      (el) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { whiteSpace: string } }).getComputedStyle(
          el,
        ).whiteSpace,
    );
    assert.equal(whiteSpace, 'pre-wrap');
    assert.equal(await shown().locator('b').count(), 0, 'no markup');
    const lines = (await shown().boundingBox())?.height ?? 0;
    const edit = region().getByLabel('Change the message');
    assert.equal(await edit.inputValue(), TYPED, 'the form prefilled');
    await expectAccessible(page, 'a draft’s page with its message and its form');
    await region().scrollIntoViewIfNeeded();
    await screenshot(page, 'request-message');

    await edit.fill(CHANGED);
    await region().getByRole('button', { name: 'Save message' }).click();
    await page.getByRole('status').filter({ hasText: 'The message to the signers was saved' }).waitFor();
    assert.equal(await shown().textContent(), CHANGED);
    const taller = (await shown().boundingBox())?.height ?? 0;
    assert.ok(taller > lines, `four lines (${taller}px) are taller than two (${lines}px)`);
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).message, CHANGED, 'changed in the API');
    await expectAccessible(page, 'a draft’s page with its message changed');

    await region().getByRole('button', { name: 'Remove the message' }).click();
    await page.getByRole('status').filter({ hasText: 'The message to the signers was removed.' }).waitFor();
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).message, null, 'removed in the API');
    assert.equal(await shown().count(), 0);
    assert.equal(await region().getByLabel('Add a message').inputValue(), '', 'offered again, empty');
    assert.equal(await region().getByRole('button', { name: 'Remove the message' }).count(), 0);
  });

  it('refuses a message with a control character beside the field, as typed', async () => {
    const page = suite.page;
    await page.goto(suite.url.replace(/\/requests\/[^/]+$/, '/requests/new'));
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    await page.getByRole('group', { name: 'Signer 1' }).getByLabel('Signer id').fill(SIGNER);
    const field = page.getByLabel('Message to the signers (optional)');
    await field.fill('Bell \u0007 here');
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.locator('#message-error').waitFor();
    assert.match((await page.locator('#message-error').textContent()) ?? '', /control characters/);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await field.inputValue(), 'Bell \u0007 here', 'as typed');
    await page
      .getByRole('alert')
      .getByRole('link', { name: /^Message to the signers:/ })
      .waitFor();
  });

  it('shows a sent Request’s message, with no form to change it', async () => {
    await suite.page.goto(suite.url);
    await suite.page.locator('h1 .state-sent').waitFor();
    assert.equal(await shown().textContent(), 'Sent with\na message');
    assert.equal(await region().getByRole('textbox').count(), 0, 'fixed once sent');
    await expectAccessible(suite.page, 'a sent Request’s page with its message');
  });
});
