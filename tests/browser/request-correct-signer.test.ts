import assert from 'node:assert/strict';
import { eventually } from '@esign/testing';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

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
  const suite = sentRequestPage({
    label: 'web_correct_signer',
    account: 'Acme correct signer',
    owner: 'owner@acme-correct-signer.example',
    password: PASSWORD,
    signer: SIGNER,
  });

  const row = () => suite.page.getByRole('row', { name: new RegExp(`^${SIGNER.replace(/\./g, '\\.')}`) });
  const executionUrl = () =>
    suite.page.getByRole('textbox', { name: `Execution URL for ${SIGNER}`, exact: true }).inputValue();
  const disclosure = () => row().locator('details.contact');
  /** What the Contact cell shows, without its Correct contact form. */
  const shownContact = async () =>
    ((await row().getByRole('cell').first().textContent()) ?? '').split('Correct contact')[0]!;
  const emailField = () => disclosure().getByLabel('E-mail address', { exact: true });
  const submit = () => suite.page.getByRole('button', { name: `Correct the contact details of ${SIGNER}` });

  it('corrects the e-mail address: the notice, the new address in the table, a new link sent to it', async () => {
    await suite.page.goto(suite.url);
    await suite.page.getByRole('rowheader', { name: SIGNER }).waitFor();
    await suite.page
      .locator('p.hint', { hasText: /^\s*A message that bounced/ })
      .getByText('Correct contact')
      .waitFor();
    await expectAccessible(suite.page, 'the Request page with Correct contact closed');
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
    await expectAccessible(suite.page, 'the Request page with Correct contact open');
    await screenshot(suite.page, 'request-correct-signer');
    const mailsBefore = suite.system.smtp.received.length;
    await submit().click();
    await suite.page
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
          suite.system.smtp.received.slice(mailsBefore).find((m) => m.to.includes('ann.lee@client.example')),
        ),
      60_000,
    );
    await expectAccessible(suite.page, 'the Request page after a correction');
  });

  it('shows a refused address beside its field, keeping what was typed', async () => {
    await suite.page.goto(suite.url);
    await disclosure().locator('summary').click();
    await emailField().fill('not an address');
    await submit().click();
    const error = disclosure().locator('#contact-0-email-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /\S/);
    assert.equal(await emailField().getAttribute('aria-invalid'), 'true');
    assert.equal(await emailField().inputValue(), 'not an address');
    assert.notEqual(await disclosure().getAttribute('open'), null, 'the form stays open');
    await suite.page
      .getByRole('alert')
      .getByRole('link', { name: /^E-mail address:/ })
      .waitFor();
    const contact = await shownContact();
    assert.match(contact, /ann\.lee@client\.example/, 'nothing was changed');
    await expectAccessible(suite.page, 'the Request page with a refused correction');
  });

  /** A draft of the sent Request's contract for `client-77`, whose address was mistyped; answers its page. */
  const draftWithTypo = async (): Promise<{
    readonly id: string;
    readonly url: string;
    readonly site: number;
  }> => {
    const sent = await suite.json(`/v1.1/requests/${suite.id}`);
    const site = Number(sent.site_id);
    const draft = await suite.json(
      `/v1.1/sites/${site}/requests`,
      'POST',
      {
        contracts: sent.contracts,
        signers: [
          { signer_id: 'client-77', signer: { email: 'bob@clinet.example' }, send_to: { email: true } },
        ],
        fields: [{ name: 'signature', assigned_to: 'client-77' }],
      },
      201,
    );
    const id = String(draft.id);
    return { id, url: suite.url.replace(suite.id, id), site };
  };
  const draftRow = () => suite.page.getByRole('row', { name: /^client-77/ });
  const draftEmail = () =>
    draftRow().locator('details.contact').getByLabel('E-mail address', { exact: true });
  const draftSubmit = () =>
    suite.page.getByRole('button', { name: 'Correct the contact details of client-77' });

  it('corrects a draft’s signer in the Site’s details (ADR 3200): channels shown, nothing to send, a refusal beside its field', async () => {
    const draft = await draftWithTypo();
    await suite.page.goto(draft.url);
    await suite.page
      .locator('p.hint', { hasText: /^\s*A mistyped address, or the wrong channel\?/ })
      .waitFor();
    await draftRow().locator('details.contact summary').click();
    assert.equal(await draftEmail().inputValue(), 'bob@clinet.example', 'prefilled with the current address');
    assert.equal(
      (await draftRow().getByRole('cell').nth(2).textContent())?.trim(),
      'When sent',
      'a draft’s e-mail is not being sent yet',
    );
    const contactForm = draftRow().locator('details.contact');
    assert.ok(await contactForm.getByRole('checkbox', { name: 'E-mail', exact: true }).isChecked());
    assert.equal(await contactForm.getByRole('checkbox', { name: 'SMS', exact: true }).isChecked(), false);
    assert.equal(
      await contactForm.getByRole('checkbox', { name: 'Send the link to them now' }).count(),
      0,
      'nothing is live to send',
    );

    await draftEmail().fill('bob@client.example');
    await draftEmail().blur();
    await expectAccessible(suite.page, 'a draft’s page with Correct contact open');
    await screenshot(suite.page, 'request-correct-draft-signer');
    await draftSubmit().click();
    await suite.page.getByRole('status').filter({ hasText: 'every other draft naming them' }).waitFor();
    const contact = (await draftRow().getByRole('cell').first().textContent()) ?? '';
    assert.match(contact, /bob@client\.example/);
    assert.doesNotMatch(contact, /clinet/);
    const record = await suite.json(`/v1.1/sites/${draft.site}/signers/client-77`);
    assert.equal(record.email, 'bob@client.example', 'the Site’s signer was corrected');
    await expectAccessible(suite.page, 'a draft’s page after a correction');

    await draftRow().locator('details.contact summary').click();
    await draftEmail().fill('not an address');
    await draftSubmit().click();
    await draftRow().locator('#contact-0-email-error').waitFor();
    assert.equal(await draftEmail().inputValue(), 'not an address', 'kept as typed');
    await expectAccessible(suite.page, 'a draft’s page with a refused correction');

    assert.equal(
      (await suite.json(`/v1.1/sites/${draft.site}/signers/client-77`)).email,
      'bob@client.example',
    );
  });

  it('adds a number in the Site’s details and SMS to the draft’s channels in one form', async () => {
    const draft = await draftWithTypo();
    await suite.page.goto(draft.url);
    await draftRow().locator('details.contact summary').click();
    const contactForm = draftRow().locator('details.contact');
    await contactForm.getByLabel('Mobile number (US)').fill('2025550177');
    await contactForm.getByRole('checkbox', { name: 'SMS', exact: true }).check();
    await draftSubmit().click();
    await suite.page.getByRole('status').filter({ hasText: 'every other draft naming them' }).waitFor();
    assert.match((await draftRow().getByRole('cell').first().textContent()) ?? '', /12025550177/);
    assert.equal(
      (await draftRow().getByRole('cell').nth(3).textContent())?.trim(),
      'When sent',
      'SMS chosen',
    );
    const view = await suite.json(`/v1.1/requests/${draft.id}`);
    assert.deepEqual((view.signers as { send_to: unknown }[])[0]?.send_to, {
      email: true,
      mobile_number: true,
    });
    await expectAccessible(suite.page, 'a draft’s page after adding a channel');
  });

  it('says so, changing nothing, when the draft was sent after its page was shown', async () => {
    const draft = await draftWithTypo();
    await suite.page.goto(draft.url);
    await draftRow().locator('details.contact summary').click();
    await draftEmail().fill('bob@client.example');
    await suite.json(`/v1.1/requests/${draft.id}/send`, 'POST');
    await draftSubmit().click();
    await suite.page
      .getByRole('alert')
      .filter({ hasText: 'The Request was sent since the page was shown' })
      .waitFor();
    const record = await suite.json(`/v1.1/sites/${draft.site}/signers/client-77`);
    assert.equal(record.email, 'bob@clinet.example', 'nothing was changed');
    await expectAccessible(suite.page, 'a sent Request’s page after a late draft correction');
  });
});
