import assert from 'node:assert/strict';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'request reassign browser test password 42';
const SIGNER = 'ann@client.example';
const LABEL = 'Signers may ask someone else to sign in their place';

/**
 * **Reassigning** on a sent Request's page in real headless Chromium, against the whole
 * built system (ADR 3560): turned on from the page (the notice, the fact "Signers may
 * reassign", the API's `allow_reassign`, the History), saved unchanged, turned off; a
 * Request cancelled meanwhile refuses it, and the page says so; axe-core on each state.
 */
describe('web application in headless Chromium: whether signers may reassign', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_request_reassign',
    account: 'Acme request reassign',
    owner: 'owner@acme-request-reassign.example',
    password: PASSWORD,
    signer: SIGNER,
  });
  const region = () => suite.page.getByRole('region', { name: 'Reassigning' });
  const box = () => region().getByRole('checkbox', { name: LABEL });
  const save = () => region().getByRole('button', { name: 'Save reassigning' });
  const fact = () => suite.page.locator('dl.facts dt', { hasText: 'Signers may reassign' });
  const allowed = async () => (await suite.json(`/v1.1/requests/${suite.id}`)).allow_reassign;
  const notice = (text: string) => suite.page.getByRole('status').filter({ hasText: text }).waitFor();

  it('turns it on from the page: the notice, the fact, the API and the History; then off again', async () => {
    const page = suite.page;
    await page.goto(suite.url);
    await page.locator('h1 .state-sent').waitFor();
    await region().getByText('Signers must sign themselves; they cannot pass this Request on.').waitFor();
    assert.equal(await box().isChecked(), false, 'unticked, as the Request is');
    assert.equal(await fact().count(), 0, 'no fact while it is off');
    assert.equal(await allowed(), false);
    await expectAccessible(page, 'a sent Request’s page with Reassigning off');

    await box().check();
    await save().click();
    await notice('Signers may now ask someone else to sign in their place.');
    assert.equal(new URL(page.url()).searchParams.get('done'), 'reassign-on');
    await fact().waitFor();
    assert.equal(await allowed(), true, 'on in the API');
    assert.equal(await box().isChecked(), true, 'ticked, as the Request now is');
    await region().getByText('Signers may ask someone else to sign in their place.').waitFor();
    await page
      .getByRole('region', { name: 'History' })
      .getByText('Whether signers may reassign changed')
      .waitFor();
    const events = await suite.json(`/v1.1/requests/${suite.id}/events?order=desc&per_page=100`);
    assert.ok(
      (events.data as { type: string; data: { changed?: string[] } }[]).some(
        (e) => e.type === 'request.updated' && e.data.changed?.includes('allow_reassign'),
      ),
      'the event names the part',
    );
    await expectAccessible(page, 'a sent Request’s page with Reassigning on');
    await screenshot(page, 'request-reassign');

    // Saved as it is: nothing asked, nothing changed.
    await save().click();
    await notice('Reassigning was already as given: nothing was changed.');
    assert.equal(await allowed(), true);

    await box().uncheck();
    await save().click();
    await notice('Signers can no longer pass this Request on.');
    assert.equal(await allowed(), false, 'off in the API');
    assert.equal(await fact().count(), 0, 'the fact gone');
    assert.equal(await box().isChecked(), false);
  });

  it('shows the API’s refusal when the Request was cancelled meanwhile, and offers it no more', async () => {
    const page = suite.page;
    await page.goto(suite.url);
    await box().check();
    await suite.json(`/v1.1/requests/${suite.id}/cancel`, 'POST');
    await save().click();
    const alert = page.getByRole('alert');
    await alert.getByText(/Reassigning was not changed\.$/).waitFor();
    await page.locator('h1 .state-cancelled').waitFor();
    assert.equal(await region().count(), 0, 'no form on a cancelled Request');
    assert.equal(await allowed(), false, 'nothing changed');
    await expectAccessible(page, 'a cancelled Request’s page with the refusal');
  });
});
