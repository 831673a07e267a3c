import assert from 'node:assert/strict';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'request subject browser test password 42';
const SIGNER = 'ann@client.example';
const TYPED = 'Your lease <b>4 Quay Street</b>';
const CHANGED = 'Your lease for 4 Quay Street, renewed';

/**
 * A Request's **e-mail subject** (ADR 3400) in real headless Chromium, against the whole
 * built system: a draft made through New Request with a subject, shown on its page as
 * text, changed and removed there; a change refused once the draft was sent (409); a
 * subject with a control character refused beside the field; a sent Request's subject
 * shown with no form; axe-core on each page.
 */
describe('web application in headless Chromium: a Request’s e-mail subject', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_request_subject',
    account: 'Acme request subject',
    owner: 'owner@acme-request-subject.example',
    password: PASSWORD,
    signer: SIGNER,
    request: { subject: 'Sent with a subject' },
  });
  const region = () => suite.page.getByRole('region', { name: 'E-mail subject' });
  const shown = () => region().locator('#subject-text');
  const newRequest = async () => {
    const page = suite.page;
    await page.goto(suite.url.replace(/\/requests\/[^/]+$/, '/requests/new'));
    await page.getByRole('heading', { name: /^New Request/ }).waitFor();
    await page.getByRole('checkbox', { name: /Service agreement/ }).check();
    await page.getByRole('group', { name: 'Signer 1' }).getByLabel('Signer id').fill(SIGNER);
    return page.getByLabel('E-mail subject (optional)');
  };

  it('creates a draft with a subject, shows it, changes it, removes it; once sent, refuses a change', async () => {
    const page = suite.page;
    const field = await newRequest();
    assert.equal(await field.getAttribute('maxlength'), '200');
    await field.fill(`  ${TYPED} `);
    await page.getByRole('checkbox', { name: /^Send now/ }).uncheck();
    await expectAccessible(page, 'the New Request form with a subject');
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.waitForURL(/\/app\/requests\/[0-9a-f-]{36}\?done=created$/);
    await page.locator('h1 .state-draft').waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).subject, TYPED, 'trimmed, in the API');

    // Shown as text, never as markup; the form prefilled.
    assert.equal(await shown().textContent(), TYPED);
    assert.equal(await shown().locator('b').count(), 0, 'no markup');
    const edit = region().getByLabel('Change the subject');
    assert.equal(await edit.inputValue(), TYPED, 'the form prefilled');
    await expectAccessible(page, 'a draft’s page with its subject and its form');
    await region().scrollIntoViewIfNeeded();
    await screenshot(page, 'request-subject');

    await edit.fill(CHANGED);
    await region().getByRole('button', { name: 'Save subject' }).click();
    await page.getByRole('status').filter({ hasText: 'The e-mail subject was saved' }).waitFor();
    assert.equal(await shown().textContent(), CHANGED);
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).subject, CHANGED, 'changed in the API');
    await expectAccessible(page, 'a draft’s page with its subject changed');

    await region().getByRole('button', { name: 'Remove the subject' }).click();
    await page.getByRole('status').filter({ hasText: 'The e-mail subject was removed' }).waitFor();
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).subject, null, 'removed in the API');
    assert.equal(await shown().count(), 0);
    assert.equal(await region().getByLabel('Add a subject').inputValue(), '', 'offered again, empty');
    assert.equal(await region().getByRole('button', { name: 'Remove the subject' }).count(), 0);

    // Sent meanwhile (through the API): the signers have it, so a change is refused.
    await region().getByLabel('Add a subject').fill('Too late');
    await suite.json(`/v1.1/requests/${id}/send`, 'POST');
    await region().getByRole('button', { name: 'Save subject' }).click();
    await page.getByRole('alert').filter({ hasText: 'The e-mail subject was not changed.' }).waitFor();
    assert.equal((await suite.json(`/v1.1/requests/${id}`)).subject, null, 'unchanged in the API');
    assert.equal(await region().count(), 0, 'sent, with no subject: no section');
    await expectAccessible(page, 'a refused subject of a Request sent meanwhile');
  });

  it('refuses a subject with a control character beside the field, as typed', async () => {
    const page = suite.page;
    const field = await newRequest();
    await field.fill('Bell \u0007 here');
    await page.getByRole('button', { name: 'Create Request' }).click();
    await page.locator('#subject-error').waitFor();
    assert.match((await page.locator('#subject-error').textContent()) ?? '', /control characters/);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await field.inputValue(), 'Bell \u0007 here', 'as typed');
    await page
      .getByRole('alert')
      .getByRole('link', { name: /^E-mail subject:/ })
      .waitFor();
    await expectAccessible(page, 'New Request with a refused subject');
  });

  it('shows a sent Request’s subject, with no form to change it', async () => {
    await suite.page.goto(suite.url);
    await suite.page.locator('h1 .state-sent').waitFor();
    assert.equal(await shown().textContent(), 'Sent with a subject');
    assert.equal(await region().getByRole('textbox').count(), 0, 'fixed once sent');
    await expectAccessible(suite.page, 'a sent Request’s page with its subject');
  });
});
