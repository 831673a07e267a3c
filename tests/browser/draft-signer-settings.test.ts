import assert from 'node:assert/strict';
import { eventually } from '@esign/testing';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'draft signer settings browser test password 42';
const FIRST = 'client-1';
const SECOND = 'bo@client.example';

interface SignerShown {
  readonly signer_id: string;
  readonly order: number | null;
  readonly authentication: { readonly method: string } | null;
  readonly locale: string | null;
}

/**
 * A draft's signers' signing settings changed on its page in real headless Chromium,
 * against the whole built system (ADR 3290): a draft of two signers without an order; the
 * first given one through their **Signing settings** (the page then names the second as
 * having none, and the send is refused naming them); a too-short access code refused
 * beside its control; the second given an order, an access code and a language; all of it
 * read back through the page and the API; the draft sent; History saying what changed;
 * nothing of this on a sent Request; axe-core with the form open and with a refusal shown.
 */
describe('web application in headless Chromium: a draft signer’s signing settings', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_draft_signer_settings',
    account: 'Acme draft signer settings',
    owner: 'owner@acme-draft-signer-settings.example',
    password: PASSWORD,
    signer: 'ann@client.example',
  });
  let draftUrl = '';
  let draftId = '';
  const signers = async () => {
    const r = await suite.json(`/v1.1/requests/${draftId}`);
    return { state: r.state as string, signers: r.signers as SignerShown[] };
  };
  /** The signer's row of the Signers table. */
  const row = (signerId: string) =>
    suite.page
      .locator('table tbody tr')
      .filter({ has: suite.page.locator('th[scope="row"]', { hasText: signerId }) });
  /** Their Signing settings opened. */
  const openSettings = async (signerId: string) => {
    const details = row(signerId).locator('details.settings');
    if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
    await row(signerId).getByLabel('Signing order').waitFor();
    return row(signerId);
  };
  const save = (signerId: string) =>
    row(signerId)
      .getByRole('button', { name: `Save the signing settings of ${signerId}` })
      .click();
  const saved = (signerId: string) =>
    suite.page
      .getByRole('status')
      .filter({ hasText: `${signerId}’s signing settings were saved.` })
      .waitFor();

  before(async () => {
    // A draft of the sent Request's contract: two signers, neither with an order.
    const sent = await suite.json(`/v1.1/requests/${suite.id}`);
    const made = await suite.json(
      `/v1.1/sites/${String(sent.site_id)}/requests`,
      'POST',
      {
        contracts: sent.contracts,
        signers: [
          { signer_id: FIRST, signer: { email: 'cy@client.example' }, send_to: { email: true } },
          { signer_id: SECOND, signer: { email: SECOND }, send_to: { email: true } },
        ],
        fields: [{ name: 'signature', assigned_to: FIRST }],
        render_data: { client_name: 'Cy Young' },
      },
      201,
    );
    draftId = String(made.id);
    draftUrl = suite.url.replace(suite.id, draftId);
  });

  it('orders one signer, names the other as without an order, and the send refuses it naming them', async () => {
    await suite.page.goto(draftUrl);
    assert.equal(await suite.page.locator('#part-ordered').count(), 0, 'nobody ordered: no hint');
    const first = await openSettings(FIRST);
    assert.equal(await first.getByLabel('Signing order').inputValue(), '', 'no order yet');
    assert.equal(await first.getByLabel('Check before signing').inputValue(), '', 'None');
    assert.equal(await first.getByLabel('Language').inputValue(), '', 'the Site’s default');
    await expectAccessible(suite.page, 'a draft’s page with a signer’s Signing settings open');
    await first.getByLabel('Signing order').fill('1');
    await save(FIRST);
    await saved(FIRST);
    const hint = suite.page.locator('#part-ordered');
    assert.match(
      (await hint.textContent()) ?? '',
      new RegExp(`this one has none:\\s*${SECOND}\\.\\s*Give every signer an order, or remove them all`),
    );
    assert.deepEqual(
      (await signers()).signers.map((s) => [s.signer_id, s.order]),
      [
        [FIRST, 1],
        [SECOND, null],
      ],
    );

    await suite.page.getByRole('button', { name: 'Send', exact: true }).click();
    const alert = suite.page.getByRole('alert');
    const link = alert.getByRole('link', { name: `${SECOND} has no signing order` });
    await link.waitFor();
    assert.match(
      (await alert.textContent()) ?? '',
      /The Request was not sent\. Every signer needs a signing order/,
    );
    await expectAccessible(suite.page, 'a draft’s page with its send refused for want of an order');
    await link.click();
    // The link leads into their Signing settings, opened for it.
    assert.equal(await row(SECOND).getByLabel('Signing order').isVisible(), true);
    assert.equal((await signers()).state, 'draft', 'not sent');
  });

  it('shows a refused check beside its control, then saves an order, an access code and a language', async () => {
    await suite.page.goto(draftUrl);
    let second = await openSettings(SECOND);
    // A one-time code by SMS, for a signer with no mobile number: the API refuses it.
    await second.getByLabel('Check before signing').selectOption('sms_otp');
    await second.getByLabel('Signing order').fill('2');
    await save(SECOND);
    const error = suite.page.locator('#settings-1-auth-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /they have none: give the Site's signer one first/);
    second = row(SECOND);
    assert.equal(await second.getByLabel('Check before signing').getAttribute('aria-invalid'), 'true');
    assert.equal(await second.getByLabel('Check before signing').inputValue(), 'sms_otp', 'as chosen');
    assert.equal(await second.getByLabel('Signing order').inputValue(), '2', 'as typed');
    const alert = suite.page.getByRole('alert');
    await alert.getByRole('link', { name: /^Check before signing:/ }).waitFor();
    assert.match(
      (await alert.textContent()) ?? '',
      new RegExp(`The signing settings of ${SECOND} were not changed\\.`),
    );
    assert.deepEqual(
      (await signers()).signers.map((s) => [s.order, s.authentication]),
      [
        [1, null],
        [null, null],
      ],
      'nothing saved',
    );
    await expectAccessible(suite.page, 'a draft’s page with Signing settings refused');

    await second.getByLabel('Check before signing').selectOption('access_code');
    await second.getByLabel('Access code').fill('open sesame 42');
    await second.getByLabel('Language').selectOption('es');
    const code = second.getByLabel('Access code');
    // Left focused, the field would be scrolled back when the screenshot restores the viewport.
    await code.blur();
    await screenshot(suite.page, 'request-signer-settings');
    await save(SECOND);
    await saved(SECOND);
    assert.equal(await suite.page.locator('#part-ordered').count(), 0, 'everyone ordered');
    assert.match(
      ((await row(SECOND).locator('.settings-now').textContent()) ?? '').replace(/\s+/g, ' '),
      /Order: 2; check: access code you give them; language: Spanish \(es\)/,
    );
    second = await openSettings(SECOND);
    assert.equal(await second.getByLabel('Signing order').inputValue(), '2');
    assert.equal(await second.getByLabel('Check before signing').inputValue(), 'access_code');
    assert.equal(await second.getByLabel('Access code').inputValue(), '', 'never shown again');
    assert.equal(await second.getByLabel('Language').inputValue(), 'es');
    assert.deepEqual(
      (await signers()).signers.map((s) => [s.signer_id, s.order, s.authentication, s.locale]),
      [
        [FIRST, 1, null, null],
        [SECOND, 2, { method: 'access_code' }, 'es'],
      ],
    );
    // Saved again unchanged: nothing asked of the API, and the page says so.
    await save(SECOND);
    await suite.page
      .getByRole('status')
      .filter({ hasText: `${SECOND}’s signing settings were already as given: nothing was changed.` })
      .waitFor();
  });

  it('sends the ordered draft, says in History what changed, and offers no settings once sent', async () => {
    await suite.page.goto(draftUrl);
    await suite.page.getByRole('button', { name: 'Send', exact: true }).click();
    await suite.page.getByRole('status').filter({ hasText: 'The Request was sent' }).waitFor();
    assert.equal((await signers()).state, 'sent');
    assert.equal(await suite.page.locator('details.settings').count(), 0, 'no Signing settings once sent');
    assert.equal(await suite.page.getByRole('button', { name: /^Save the signing settings/ }).count(), 0);
    await eventually(
      async () => {
        const { data } = await suite.json(`/v1.1/requests/${draftId}/events`);
        const types = (data as { type: string }[]).map((e) => e.type);
        return types.filter((t) => t === 'request.signer_updated').length >= 2 &&
          types.includes('request.sent')
          ? true
          : undefined;
      },
      30_000,
      250,
    );
    await suite.page.reload();
    const history = suite.page.getByRole('region', { name: 'History' });
    await history.getByText(new RegExp(`^Signing settings changed for ${FIRST}.*: order$`)).waitFor();
    await history
      .getByText(
        new RegExp(`^Signing settings changed for ${SECOND}.*: order, check before signing, language$`),
      )
      .waitFor();
  });
});
