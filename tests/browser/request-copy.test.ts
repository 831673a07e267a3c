import assert from 'node:assert/strict';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'request copy browser test password 42';
const SIGNER = 'ann@client.example';
const HINT = 'Its state is final: copy it to a new draft to send it again';

interface SignerShown {
  readonly signer_id: string;
  readonly email: string | null;
}

/**
 * **Copy to a new draft** on a Request's page in real headless Chromium, against the whole
 * built system: a Request made and sent through the API, cancelled on its page, then copied
 * from it; the new draft's page with its notice and its "Copied from" fact linking back to
 * the source on every visit (ADR 3410), and the copy in the API with the source's contracts,
 * signers, fields and render data but no expiry; axe-core on both pages.
 */
describe('web application in headless Chromium: copying a Request to a new draft', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_request_copy',
    account: 'Acme request copy',
    owner: 'owner@acme-request-copy.example',
    password: PASSWORD,
    signer: SIGNER,
    request: { cc: ['legal@client.example'], reminder_interval_days: 2 },
  });
  const copyButton = () => suite.page.getByRole('button', { name: 'Copy to a new draft', exact: true });

  it('cancels a sent Request, copies it from its page and lands on the new draft saying so', async () => {
    await suite.page.goto(suite.url);
    await suite.page.locator('h1 .state-sent').waitFor();
    await copyButton().waitFor();
    assert.equal(await suite.page.getByText(HINT).count(), 0, 'no hint on an open Request');
    assert.equal(await suite.page.getByRole('button', { name: 'Copy as a live draft' }).count(), 0);

    // Behind its disclosure; an empty form cancels without a reason, telling nobody.
    await suite.page.locator('details.cancel summary').click();
    await suite.page.getByRole('button', { name: 'Cancel Request', exact: true }).click();
    await suite.page.getByRole('status').filter({ hasText: 'The Request was cancelled.' }).waitFor();
    await suite.page.locator('h1 .state-cancelled').waitFor();
    await suite.page.getByText(HINT).waitFor();
    assert.equal(
      await copyButton().getAttribute('aria-describedby'),
      'copy-hint',
      'the hint describes the button',
    );
    await expectAccessible(suite.page, 'a cancelled Request’s page with Copy to a new draft');

    await copyButton().click();
    const notice = suite.page
      .getByRole('status')
      .filter({ hasText: 'The Request was copied to this new draft' });
    await notice.waitFor();
    await suite.page.locator('h1 .state-draft').waitFor();
    const landed = new URL(suite.page.url());
    const newId = landed.pathname.split('/').pop()!;
    assert.notEqual(newId, suite.id, 'a new Request');
    assert.equal(landed.searchParams.get('done'), 'copied');
    assert.equal(
      ((await notice.textContent()) ?? '').replace(/\s+/g, ' ').trim(),
      'The Request was copied to this new draft: check it, set an expiry if it needs one, and send it.',
    );
    // ADR 3410: the copy names its source among its facts, linked by its short id.
    const source = async () => {
      const fact = suite.page.locator('dl.facts dt', { hasText: 'Copied from' });
      assert.equal(await fact.count(), 1, 'a Copied from fact');
      const back = suite.page.locator('dl.facts dt:text-is("Copied from") + dd').getByRole('link');
      assert.equal(await back.locator('code').innerText(), suite.id.slice(0, 8), 'its short id');
      return new URL((await back.getAttribute('href'))!, suite.url).href;
    };
    assert.equal(await source(), suite.url, 'links the source');
    await expectAccessible(suite.page, 'the new draft’s page with the copy notice');
    await screenshot(suite.page, 'request-copy');

    // The copy, in the API: the source's contracts, signers, fields and render data; a draft.
    const original = await suite.json(`/v1.1/requests/${suite.id}`);
    const copy = await suite.json(`/v1.1/requests/${newId}`);
    assert.equal(original.state, 'cancelled', 'the source is left as it was');
    assert.deepEqual([copy.copied_from, original.copied_from], [suite.id, null]);
    assert.equal(copy.state, 'draft');
    assert.equal(copy.test_mode, original.test_mode);
    assert.deepEqual(copy.contracts, original.contracts);
    const signers = (r: Record<string, unknown>) =>
      (r.signers as SignerShown[]).map((s) => [s.signer_id, s.email]);
    assert.deepEqual(signers(copy), signers(original));
    assert.deepEqual(copy.render_data, { client_name: 'Ann Lee' });
    assert.deepEqual(copy.cc, ['legal@client.example']);
    assert.equal(copy.reminder_interval_days, 2);
    assert.equal(copy.expires_at, null);
    assert.equal(copy.sent_at, null);

    // The new draft can be sent, and its page has no notice once reloaded without the link's query,
    // but still names its source; the source names none.
    await suite.page.goto(`${landed.origin}${landed.pathname}`);
    assert.equal(await suite.page.getByText('The Request was copied').count(), 0);
    assert.equal(await source(), suite.url, 'the source linked on every visit');
    await suite.page.getByRole('button', { name: 'Send', exact: true }).click();
    await suite.page.locator('h1 .state-sent').waitFor();
    assert.equal(await source(), suite.url, 'and once sent');
    await suite.page.goto(suite.url);
    await suite.page.locator('h1 .state-cancelled').waitFor();
    assert.equal(await suite.page.locator('dl.facts dt', { hasText: 'Copied from' }).count(), 0);
    // The source lists its copy, linked, with its state.
    const copies = suite.page.locator('dl.facts dt:text-is("Copied into") + dd');
    const link = copies.getByRole('link');
    assert.equal(await link.count(), 1);
    assert.equal(await link.getAttribute('href'), landed.pathname);
    assert.equal(await copies.locator('.state-sent').count(), 1, 'its state');
    await expectAccessible(suite.page, 'the source’s page listing its copy');
    await copies.scrollIntoViewIfNeeded();
    await screenshot(suite.page, 'request-copies');
  });
});
