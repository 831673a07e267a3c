import assert from 'node:assert/strict';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'site signers browser test password 42';
const SIGNER = 'ann@client.example';

/**
 * The Site's **Signers** page in real headless Chromium, against the whole built system
 * (ADR 3200): reached from Requests, searched, and a signer's address corrected in the
 * Site's record; a refused address beside its field; axe-core on each.
 */
describe('web application in headless Chromium: the Site’s signers', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_site_signers',
    account: 'Acme site signers',
    owner: 'owner@acme-site-signers.example',
    password: PASSWORD,
    signer: SIGNER,
  });

  const row = (signerId: string) => suite.page.getByRole('row', { name: new RegExp(`^${signerId}`) });
  const emailField = (signerId: string) =>
    row(signerId).locator('details.contact').getByLabel('E-mail address', { exact: true });

  it('lists the Site’s signers, finds one, and corrects its address for every draft', async () => {
    const sent = await suite.json(`/v1.1/requests/${suite.id}`);
    const site = Number(sent.site_id);
    await suite.json(
      `/v1.1/sites/${site}/signers/client-88`,
      'PUT',
      { signer: { email: 'cy@clinet.example' } },
      201,
    );
    await suite.page.goto(suite.url.replace(/\/requests\/.*$/, '/requests'));
    await suite.page.getByRole('link', { name: 'Signers', exact: true }).click();
    await suite.page.getByRole('heading', { name: /^Signers/ }).waitFor();
    await suite.page.getByRole('status').filter({ hasText: '2 signers.' }).waitFor();
    await row(SIGNER).waitFor();
    await expectAccessible(suite.page, 'the Signers page');

    await suite.page.getByRole('searchbox', { name: 'Search' }).fill('CLINET');
    await suite.page.getByRole('button', { name: 'Search', exact: true }).click();
    await suite.page.getByRole('status').filter({ hasText: '1 signer matching “CLINET”.' }).waitFor();
    assert.equal(await row(SIGNER).count(), 0, 'the search leaves out the others');
    await row('client-88').locator('details.contact summary').click();
    assert.equal(await emailField('client-88').inputValue(), 'cy@clinet.example');
    await emailField('client-88').fill('cy@client.example');
    await emailField('client-88').blur();
    await expectAccessible(suite.page, 'the Signers page, searched, with Correct contact open');
    await screenshot(suite.page, 'signers');
    await suite.page.getByRole('button', { name: 'Correct the contact details of client-88' }).click();
    await suite.page
      .getByRole('status')
      .filter({ hasText: 'The signer’s contact details were corrected' })
      .waitFor();
    // Back on the same search, which the new address no longer matches.
    assert.equal(await suite.page.getByRole('searchbox', { name: 'Search' }).inputValue(), 'CLINET');
    assert.equal((await suite.json(`/v1.1/sites/${site}/signers/client-88`)).email, 'cy@client.example');
    await expectAccessible(suite.page, 'the Signers page after a correction');
  });

  it('shows a refused address beside its field, keeping what was typed', async () => {
    await suite.page.goto(suite.url.replace(/\/requests\/.*$/, '/signers'));
    await row(SIGNER).locator('details.contact summary').click();
    await emailField(SIGNER).fill('not an address');
    await suite.page.getByRole('button', { name: `Correct the contact details of ${SIGNER}` }).click();
    await row(SIGNER).locator('[id$="-email-error"]').waitFor();
    assert.equal(await emailField(SIGNER).getAttribute('aria-invalid'), 'true');
    assert.equal(await emailField(SIGNER).inputValue(), 'not an address');
    await suite.page
      .getByRole('alert')
      .getByRole('link', { name: /^E-mail address:/ })
      .waitFor();
    await expectAccessible(suite.page, 'the Signers page with a refused correction');
  });

  it('leads from a signer to the Requests naming them', async () => {
    await suite.page.goto(suite.url.replace(/\/requests\/.*$/, '/signers'));
    await row(SIGNER)
      .getByRole('link', { name: `${SIGNER} (Requests naming them)` })
      .click();
    await suite.page
      .getByRole('status')
      .filter({ hasText: `1 Request naming signer ${SIGNER}.` })
      .waitFor();
    assert.equal(await suite.page.getByRole('link', { name: new RegExp(suite.id.slice(0, 8)) }).count(), 1);
    await expectAccessible(suite.page, 'the Requests naming one signer');
    await suite.page.getByRole('link', { name: 'Show every signer’s' }).click();
    await suite.page
      .getByRole('status')
      .filter({ hasText: /^\s*\d+\s+Requests?\.\s*$/ })
      .waitFor();
  });

  it('deletes a signer no Request names, and keeps one a Request names, saying why', async () => {
    await suite.page.goto(suite.url.replace(/\/requests\/.*$/, '/signers'));
    await suite.page.getByRole('button', { name: 'Delete the signer client-88' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'The signer was deleted.' }).waitFor();
    assert.equal(await row('client-88').count(), 0);
    await suite.page.getByRole('button', { name: `Delete the signer ${SIGNER}` }).click();
    await suite.page
      .getByRole('alert')
      .filter({ hasText: 'A Request of this Site names the signer' })
      .waitFor();
    await row(SIGNER).waitFor();
    await expectAccessible(suite.page, 'the Signers page with a refused deletion');
  });
});
