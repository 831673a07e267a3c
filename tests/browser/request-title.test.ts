import assert from 'node:assert/strict';
import { sentRequestOf } from './support/sent-request.js';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'request title browser test password 42';
const SIGNER = 'ann@client.example';
const TITLE = 'Lease — 4 Quay Street';
const OTHER_LEASE = 'Lease — 12 Quay Street, flat 2';
const CHANGED = 'Lease — 4 Quay Street (renewal)';

/**
 * A Request's **title** (ADR 3390) in real headless Chromium, against the whole built
 * system: a draft made through New Request with a title, shown in its page's heading;
 * found in the Requests list by searching part of its title in another case (a Request
 * titled otherwise not listed); changed and removed on its page; axe-core on each page.
 */
describe('web application in headless Chromium: a Request’s title', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_request_title',
    account: 'Acme request title',
    owner: 'owner@acme-request-title.example',
    password: PASSWORD,
    signer: SIGNER,
    request: { title: 'Service agreement — Ann Lee' },
  });
  const base = () => suite.url.replace(/\/requests\/[^/]+$/, '/requests');
  const region = () => suite.page.getByRole('region', { name: 'Title' });

  it('creates a draft with a title, finds it by part of its title, changes it and removes it', async () => {
    const page = suite.page;
    // One more titled Request, sent through the API, so the search lists two.
    const sent = await suite.json(`/v1.1/requests/${suite.id}`);
    const contract = (sent.contracts as unknown[])[0];
    await sentRequestOf(suite.json, Number(sent.site_id), contract, SIGNER, { title: OTHER_LEASE });

    await page.goto(`${base()}/new`);
    await page.getByRole('heading', { name: /^New Request/ }).waitFor();
    const field = page.getByLabel('Title (optional)');
    assert.equal(await field.getAttribute('maxlength'), '255');
    await field.fill(`  ${TITLE} `);
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    await page.getByRole('group', { name: 'Signer 1' }).getByLabel('Signer id').fill(SIGNER);
    await page.getByRole('checkbox', { name: /^Send now/ }).uncheck();
    await expectAccessible(page, 'the New Request form with a title');
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.waitForURL(/\/app\/requests\/[0-9a-f-]{36}\?done=created$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const heading = page.getByRole('heading', { level: 1 });
    assert.match(
      (await heading.textContent()) ?? '',
      new RegExp(`^\\s*${TITLE}\\s+Request ${id.slice(0, 8)}\\s+draft`),
    );
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).title, TITLE, 'trimmed, in the API');
    await expectAccessible(page, 'a draft’s page with its title');

    // The list searched by part of the title, in another case.
    await page.goto(base());
    await page.getByLabel('Search titles').fill('QUAY street');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\?q=QUAY\+street/);
    await page
      .getByRole('status')
      .filter({ hasText: '2 Requests whose title contains “QUAY street”.' })
      .waitFor();
    const rows = page.locator('tbody tr');
    assert.equal(await rows.count(), 2);
    await page.getByRole('link', { name: new RegExp(`^${TITLE} \\(Request ${id}\\)$`) }).waitFor();
    await page.getByRole('link', { name: new RegExp(`^${OTHER_LEASE} \\(Request`) }).waitFor();
    assert.equal(
      await page.getByRole('link', { name: /Service agreement — Ann Lee/ }).count(),
      0,
      'not listed',
    );
    assert.equal(await page.getByLabel('Search titles').inputValue(), 'QUAY street', 'kept in the box');
    await expectAccessible(page, 'the Requests list searched by title');
    await screenshot(page, 'request-title');

    await page.getByRole('link', { name: 'Clear the search' }).click();
    await page.getByRole('link', { name: /^Service agreement — Ann Lee \(Request/ }).waitFor();

    // Changed, then removed, on its page.
    await page.getByRole('link', { name: new RegExp(`^${TITLE} \\(Request ${id}\\)$`) }).click();
    await page.waitForURL(new RegExp(`/app/requests/${id}$`));
    const edit = region().getByLabel('Change the title');
    assert.equal(await edit.inputValue(), TITLE, 'the form prefilled');
    await edit.fill(CHANGED);
    await region().getByRole('button', { name: 'Save title' }).click();
    await page.getByRole('status').filter({ hasText: 'The title was saved' }).waitFor();
    assert.match((await heading.textContent()) ?? '', /Lease — 4 Quay Street \(renewal\)\s+Request/);
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).title, CHANGED, 'changed in the API');
    await expectAccessible(page, 'a draft’s page with its title changed');

    await region().getByRole('button', { name: 'Remove the title' }).click();
    await page.getByRole('status').filter({ hasText: 'The title was removed.' }).waitFor();
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).title, null, 'removed in the API');
    assert.match((await heading.textContent()) ?? '', new RegExp(`^\\s*Request ${id.slice(0, 8)}\\s+draft`));
    assert.equal(await region().getByLabel('Add a title').inputValue(), '', 'offered again, empty');
    assert.equal(await region().getByRole('button', { name: 'Remove the title' }).count(), 0);
    const events = await suite.json(`/v1.1/requests/${id}/events?order=desc&per_page=100`);
    assert.ok(
      (events.data as { type: string; data: { changed?: string[] } }[]).some(
        (e) => e.type === 'request.updated' && e.data.changed?.includes('title'),
      ),
      'in its History',
    );
    await page.getByRole('region', { name: 'History' }).getByText('Title changed').first().waitFor();
  });

  it('refuses a title with a control character beside the field, as typed', async () => {
    const page = suite.page;
    await page.goto(suite.url);
    await page.locator('h1 .state-sent').waitFor();
    const edit = region().getByLabel('Change the title');
    await edit.fill('Bell \t here');
    await region().getByRole('button', { name: 'Save title' }).click();
    await page.locator('#title-error').waitFor();
    assert.equal(await edit.getAttribute('aria-invalid'), 'true');
    assert.equal(await edit.inputValue(), 'Bell \t here', 'as typed');
    await page
      .getByRole('alert')
      .getByRole('link', { name: /^Title:/ })
      .waitFor();
    assert.equal((await suite.json(`/v1.1/requests/${suite.id}`)).title, 'Service agreement — Ann Lee');
    await expectAccessible(page, 'a sent Request’s page with its title refused');
  });
});
