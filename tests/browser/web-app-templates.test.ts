import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, type EsignSystem } from '@esign/testing';
import { expectAccessible, screenshot } from './support/web-app.js';
import { gatewayCall, signInAs, webAppAccount, type Account } from './support/web-app-account.js';

/**
 * The web application in headless Chromium, signed in as an account's owner against the whole
 * built system: templates, the Requests dashboard, Sites, signing out; axe-core. The PDFs
 * (a PDF template's, an executed one) are web-app-pdfs.test.ts.
 */
describe('web application in headless Chromium: templates → requests → sites', function () {
  this.timeout(300_000); // generous: the machine may be busy; nothing here measures speed
  const suite = webAppAccount('web_app_templates');
  let system: EsignSystem;
  let account: Account;
  let page: Page;
  let web: string;
  before(async () => {
    ({ system, account, page, web } = suite);
    await signInAs(suite, account.owner);
  });

  const api = gatewayCall(suite);
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

  let templateId: number;

  it('creates an HTML template with tokens highlighted and previewed, publishes it; its address holds the API id', async () => {
    await nav('Templates').click();
    await expectAccessible(page, 'templates (empty)');
    await page.getByRole('link', { name: 'New HTML template' }).click();
    await page.getByLabel('Name').fill('Consulting agreement');
    await page
      .getByLabel('HTML')
      .fill('<h1>Agreement</h1>\n<p>Dear {{client_name}}, the fee is {{fee}}.</p>');
    await page.locator('#tokens li', { hasText: '{{fee}}' }).waitFor();
    assert.deepEqual(await page.locator('#tokens li').allTextContents(), ['{{client_name}}', '{{fee}}']);
    assert.equal(
      await page.locator('#highlight mark.token').count(),
      2,
      'each token is marked in the source',
    );
    await page
      .getByLabel('Sample render_data (JSON)')
      .fill('{"client_name": "Ada <Lovelace>", "fee": "$1,000"}');
    const preview = page.frameLocator('#preview');
    // The preview is a sandboxed frame (no script, its own origin): read its text.
    await eventually(
      async () =>
        (await preview.locator('p').textContent())?.includes('Dear Ada <Lovelace>, the fee is $1,000.')
          ? true
          : undefined,
      20_000,
      100,
    );
    await page.getByLabel('Signer fields (optional)').fill('signature: signature');
    // The preview frame is sandboxed without scripts (axe cannot run in it): it must still
    // carry a title for assistive technology.
    assert.equal(
      await page.locator('#preview').getAttribute('title'),
      'Preview of the template with the sample data',
    );
    assert.equal(await page.locator('#preview').getAttribute('sandbox'), '');
    await expectAccessible(page, 'template editor', ['#preview']);
    // Typing the fields refreshes the preview too: the screenshot waits for it to show again.
    await eventually(
      async () =>
        (await preview.locator('p').textContent())?.includes('Dear Ada') === true ? true : undefined,
      20_000,
      100,
    );
    await screenshot(page, 'template-editor');
    await page.getByRole('button', { name: 'Create template' }).click();
    const match = /\/app\/templates\/(\d+)\?/.exec(page.url());
    assert.ok(match, page.url());
    templateId = Number(match[1]);
    // A draft is edited in the same editor before it is published (ADR 3240).
    await expectAccessible(page, 'a draft template');
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit draft template' }).waitFor();
    assert.equal(await page.getByLabel('Signer fields (optional)').inputValue(), 'signature: signature');
    await page.getByLabel('Name').fill('Consulting agreement 2031');
    // A choice with its options, written in the editor's lines (ADR 3640), and a field
    // asked for on either of two conditions (ADR 3850).
    await page
      .getByLabel('Signer fields (optional)')
      .fill(
        'signature: signature\nbilling: choice [Monthly | Yearly] optional\nagent: checkbox\n' +
          'invoice_email: text optional if agent or billing = Yearly',
      );
    await expectAccessible(page, 'a draft template in the editor', ['#preview']);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('The draft was saved.').waitFor();
    await page.getByRole('row', { name: /billing\s+choice\s+Monthly, Yearly; optional/ }).waitFor();
    await page
      .getByRole('row', {
        name: /invoice_email\s+text\s+optional; asked only when “agent” is ticked or “billing” is “Yearly”/,
      })
      .waitFor();
    await page.getByRole('heading', { level: 1, name: /^Consulting agreement 2031/ }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/app/templates/${templateId}`, 'the same template');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published: Requests can now use this template.').waitFor();
    assert.equal(new URL(page.url()).pathname, `/app/templates/${templateId}`);
    // Its History (ADR 3720): created, changed, published, oldest first.
    const history = page.getByRole('table', { name: 'What happened to this template, oldest first' });
    assert.deepEqual(
      (await history.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) => t.trim()),
      ['Created', 'Changed', 'Published'],
    );
    await expectAccessible(page, 'template');
    await history.scrollIntoViewIfNeeded();
    await screenshot(page, 'template-history');

    const created = await api(account.token, 'POST', `/v1.1/sites/${account.production}/requests`, {
      contracts: [templateId],
      signers: [{ signer_id: 'client-7' }],
      fields: [{ name: 'signature', assigned_to: 'client-7' }],
      render_data: { client_name: 'Ada', fee: '$1' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  it('deletes a draft template behind a disclosure (ADR 3240); the list says so and no longer has it', async () => {
    await page.goto(`${web}/templates/new`);
    await page.getByLabel('Name').fill('Scratch draft');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByText('Created as a draft.').waitFor();
    await page.getByText('Delete this draft…').click();
    await expectAccessible(page, 'a draft template with Delete open');
    await page.getByRole('button', { name: 'Delete draft template' }).click();
    await page.getByRole('status').filter({ hasText: 'The template was deleted.' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Scratch draft' }).count(), 0);
  });

  it('refuses a broken template with the message next to the HTML field', async () => {
    await page.goto(`${web}/templates/new`);
    await page.getByLabel('Name').fill('Broken');
    await page.getByLabel('HTML').fill('<p>Dear {{client name}}</p>');
    await page.getByRole('button', { name: 'Create template' }).click();
    assert.equal(await page.getByLabel('HTML').getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator('#html-error').textContent()) ?? '', /placeholder/);
    await expectAccessible(page, 'template refused', ['#preview']);
  });

  it('shows a Request created through the API on the dashboard, and a sent signer’s delivery status', async () => {
    const created = await api(account.token, 'POST', `/v1.1/sites/${account.production}/requests`, {
      contracts: [templateId],
      signers: [{ signer_id: 'grace@client.example', send_to: { email: true } }],
      fields: [
        { name: 'signature', assigned_to: 'grace@client.example' },
        { name: 'billing', assigned_to: 'grace@client.example' },
        { name: 'agent', assigned_to: 'grace@client.example' },
        { name: 'invoice_email', assigned_to: 'grace@client.example' },
      ],
      render_data: { client_name: 'Grace', fee: '$2' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = String(created.body!.id);
    // A test-mode draft beside it, marked as such in the list (issue #22).
    const test = await api(account.token, 'POST', `/v1.1/sites/${account.production}/requests`, {
      contracts: [templateId],
      signers: [{ signer_id: 'client-2' }],
      render_data: { client_name: 'Test', fee: '$0' },
      test_mode: true,
    });
    assert.equal(test.status, 201, JSON.stringify(test.body));
    const testRequestId = String(test.body!.id);
    await nav('Requests').click();
    await page.getByRole('link', { name: new RegExp(`Request ${id}`) }).waitFor();
    await page.getByLabel('State').selectOption('draft');
    await page.getByRole('button', { name: 'Filter' }).click();
    assert.match(page.url(), /state=draft/);
    const testRow = page.getByRole('row', { name: new RegExp(`Request ${testRequestId}`) });
    assert.match((await testRow.textContent()) ?? '', /\btest\b/, 'a test-mode Request is marked');
    await expectAccessible(page, 'dashboard');
    await screenshot(page, 'requests');
    await page.getByRole('link', { name: new RegExp(`Request ${id}`) }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('The Request was sent').waitFor();
    await eventually(
      async () => {
        await page.reload();
        return (await page.getByRole('row', { name: /^grace@client\.example/ }).textContent())?.includes(
          'Sent',
        )
          ? true
          : undefined;
      },
      60_000,
      500,
    );
    await page.getByRole('button', { name: 'Copy the Execution URL for grace@client.example' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    const url = await page
      .getByRole('textbox', { name: 'Execution URL for grace@client.example', exact: true })
      .inputValue();
    await screenshot(page, 'request');
    assert.ok(url.startsWith(`${system.gatewayUrl}/sign?`), url);
    // A signer whose link was lost gets a new one, sent to them; the old one stops opening.
    await page.getByRole('checkbox', { name: 'Send it to them' }).check();
    await page.getByRole('button', { name: 'New Execution URL for grace@client.example' }).click();
    await page
      .getByText('The signer has a new Execution URL (below), and it is being sent to them')
      .waitFor();
    const renewed = await page
      .getByRole('textbox', { name: 'Execution URL for grace@client.example', exact: true })
      .inputValue();
    assert.notEqual(renewed, url);
    assert.equal((await fetch(url)).status, 410, 'the replaced link no longer opens');
    assert.equal((await fetch(renewed)).status, 200);
    await expectAccessible(page, 'request with a new link');
    await page.getByRole('button', { name: 'Remind signers' }).click();
    // Just sent: the API refuses a reminder this soon, and the page says so and when to retry.
    await page
      .getByRole('alert')
      .getByText(/remind again in \d+ s/)
      .waitFor();
    await expectAccessible(page, 'request');
    // Behind its disclosure; an empty form cancels without a reason, telling nobody.
    await page.locator('details.cancel summary').click();
    await page.getByRole('button', { name: 'Cancel Request', exact: true }).click();
    await page.getByText('The Request was cancelled.').waitFor();
  });

  it('switches Sites, and lets the account admin add a user to a single Site and remove them', async () => {
    await nav('Requests').click();
    await page.getByRole('heading', { name: /on Production/ }).waitFor();
    await page.getByLabel('Site', { exact: true }).selectOption(String(account.development));
    await page.getByRole('button', { name: 'Switch', exact: true }).click();
    await page.getByRole('heading', { name: /on Development/ }).waitFor();
    await nav('Sites').click();
    const field = page.getByLabel('E-mail of the user to add to Development');
    await field.fill('nobody@elsewhere.example');
    await page.getByRole('button', { name: 'Add to Development' }).click();
    assert.equal(
      await page.getByLabel('E-mail of the user to add to Development').getAttribute('aria-invalid'),
      'true',
    );
    await expectAccessible(page, 'sites with a refused addition');
    await page.getByLabel('E-mail of the user to add to Development').fill(account.member);
    await page.getByRole('button', { name: 'Add to Development' }).click();
    await page.getByText('The user was added to the Site.').waitFor();
    await page.getByRole('button', { name: `Remove ${account.member} from Development` }).waitFor();
    await expectAccessible(page, 'sites');
    await screenshot(page, 'sites');
    await page.getByRole('button', { name: `Remove ${account.member} from Development` }).click();
    await page.getByText('The user was removed from the Site.').waitFor();
    assert.equal(
      await page.getByRole('button', { name: `Remove ${account.member} from Development` }).count(),
      0,
    );
  });

  it('signs out: the session ends and the pages ask to sign in again', async () => {
    const session = (await page.context().cookies()).find((c) => c.name === 'esign_session')!.value;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    const after = await fetch(`${system.gatewayUrl}/v1.1/sessions/current`, {
      headers: { authorization: `Bearer ${session}` },
    });
    assert.equal(after.status, 401);
    await page.goto(`${web}/requests`);
    assert.equal(new URL(page.url()).pathname, '/app/sign-in');
    await expectAccessible(page, 'signed out');
  });

  it('refuses a state-changing form from another origin', async () => {
    const forged = await fetch(`${web}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'email=a%40b.c&password=x&_csrf=x',
    });
    assert.equal(forged.status, 403);
  });
});
