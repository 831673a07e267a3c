import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { ownerWithSentRequest } from './support/sent-request.js';
import { expectAccessible, launchChromium, screenshot, signedInTab } from './support/web-app.js';

const PASSWORD = 'correct signer browser test password 42';
const SIGNER = 'ann@client.example';

/**
 * **Correct contact** on a sent Request's page in real headless Chromium, against the
 * whole built system (ADR 3140): the signer's e-mail address corrected, the notice, the
 * new address in the signers table, a new Execution URL sent to it while the old one
 * stops opening; a refused address shown beside its field, as typed; axe-core on each.
 */
describe('web application in headless Chromium: correcting how a signer is reached', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let requestPath: string;

  const row = () => page.getByRole('row', { name: new RegExp(`^${SIGNER.replace(/\./g, '\\.')}`) });
  const executionUrl = () =>
    page.getByRole('textbox', { name: `Execution URL for ${SIGNER}`, exact: true }).inputValue();
  const disclosure = () => row().locator('details.contact');
  /** What the Contact cell shows, without its Correct contact form. */
  const shownContact = async () =>
    ((await row().getByRole('cell').first().textContent()) ?? '').split('Correct contact')[0]!;
  const emailField = () => disclosure().getByLabel('E-mail address', { exact: true });
  const submit = () => page.getByRole('button', { name: `Correct the contact details of ${SIGNER}` });

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_correct_signer' });
    const owner = 'owner@acme-correct-signer.example';
    ({ url: requestPath } = await ownerWithSentRequest(system, {
      account: 'Acme correct signer',
      owner,
      password: PASSWORD,
      signer: SIGNER,
    }));
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

  it('corrects the e-mail address: the notice, the new address in the table, a new link sent to it', async () => {
    await page.goto(requestPath);
    await page.getByRole('rowheader', { name: SIGNER }).waitFor();
    await page
      .locator('p.hint', { hasText: /^\s*A message that bounced/ })
      .getByText('Correct contact')
      .waitFor();
    await expectAccessible(page, 'the Request page with Correct contact closed');
    const before = await executionUrl();
    assert.equal(await emailField().isVisible(), false, 'closed until asked for');
    await disclosure().locator('summary').click();
    assert.equal(await emailField().inputValue(), SIGNER, 'prefilled with the current address');
    assert.equal(await disclosure().getByLabel('Mobile number (US)').inputValue(), '');
    assert.ok(await disclosure().getByRole('checkbox', { name: 'E-mail', exact: true }).isChecked());
    assert.equal(await disclosure().getByRole('checkbox', { name: 'SMS', exact: true }).isChecked(), false);
    assert.ok(await disclosure().getByRole('checkbox', { name: 'Send the link to them now' }).isChecked());
    await emailField().fill('ann.lee@client.example');
    // Left focused, the field is scrolled back into view when the full-page screenshot
    // restores the viewport, and the click below would land beside the button.
    await emailField().blur();
    await expectAccessible(page, 'the Request page with Correct contact open');
    await screenshot(page, 'request-correct-signer');
    const mailsBefore = system.smtp.received.length;
    await submit().click();
    await page
      .getByRole('status')
      .filter({ hasText: 'They have a new Execution URL (below), and it is being sent to them' })
      .waitFor();
    const contact = await shownContact();
    assert.match(contact, /ann\.lee@client\.example/, 'the new address in the signers table');
    assert.doesNotMatch(contact, /ann@client\.example/);
    const after = await executionUrl();
    assert.notEqual(after, before, 'a new Execution URL');
    assert.equal((await fetch(before)).status, 410, 'the old link no longer opens');
    await eventually(
      () =>
        Promise.resolve(
          system.smtp.received.slice(mailsBefore).find((m) => m.to.includes('ann.lee@client.example')),
        ),
      60_000,
    );
    await expectAccessible(page, 'the Request page after a correction');
  });

  it('shows a refused address beside its field, keeping what was typed', async () => {
    await page.goto(requestPath);
    await disclosure().locator('summary').click();
    await emailField().fill('not an address');
    await submit().click();
    const error = disclosure().locator('#contact-0-email-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /\S/);
    assert.equal(await emailField().getAttribute('aria-invalid'), 'true');
    assert.equal(await emailField().inputValue(), 'not an address');
    assert.notEqual(await disclosure().getAttribute('open'), null, 'the form stays open');
    await page
      .getByRole('alert')
      .getByRole('link', { name: /^E-mail address:/ })
      .waitFor();
    const contact = await shownContact();
    assert.match(contact, /ann\.lee@client\.example/, 'nothing was changed');
    await expectAccessible(page, 'the Request page with a refused correction');
  });
});
