import assert from 'node:assert/strict';
import { eventually } from '@esign/testing';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'draft signers browser test password 42';
const FIRST = 'client-1';
const SECOND = 'bo@client.example';

interface SignerShown {
  readonly signer_id: string;
  readonly email: string | null;
  readonly send_to: { readonly email: boolean; readonly mobile_number: boolean };
  readonly locale: string | null;
}
interface FieldShown {
  readonly name: string;
  readonly assigned_to: string | null;
}

/**
 * A draft's signers added and removed on its page in real headless Chromium, against the
 * whole built system (ADR 3280): a draft of one signer and one field, a second signer
 * added through **Add a signer** and listed, the first removed with their **Remove**, the
 * field theirs left without a signer and the notice saying so; a signer already on the
 * draft refused beside its field; nothing of this on a sent Request; axe-core on each page.
 */
describe('web application in headless Chromium: adding and removing a draft’s signers', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_draft_signers',
    account: 'Acme draft signers',
    owner: 'owner@acme-draft-signers.example',
    password: PASSWORD,
    signer: 'ann@client.example',
  });
  let draftUrl = '';
  let draftId = '';
  const draft = async () => {
    const r = await suite.json(`/v1.1/requests/${draftId}`);
    return { signers: r.signers as SignerShown[], fields: r.fields as FieldShown[] };
  };
  const section = () => suite.page.getByRole('region', { name: 'Add a signer' });
  const signerIdField = () => section().getByLabel('Signer id');
  const addButton = () => section().getByRole('button', { name: 'Add signer' });
  const rowHeaders = () => suite.page.locator('table tbody th[scope="row"]').allTextContents();

  before(async () => {
    // A draft of the sent Request's contract: one signer, who fills its one field.
    const sent = await suite.json(`/v1.1/requests/${suite.id}`);
    const made = await suite.json(
      `/v1.1/sites/${String(sent.site_id)}/requests`,
      'POST',
      {
        contracts: sent.contracts,
        signers: [{ signer_id: FIRST, signer: { email: 'cy@client.example' }, send_to: { email: true } }],
        fields: [{ name: 'signature', assigned_to: FIRST }],
        render_data: { client_name: 'Cy Young' },
      },
      201,
    );
    draftId = String(made.id);
    draftUrl = suite.url.replace(suite.id, draftId);
  });

  it('adds a second signer through the form, lists them, and removes the first, whose field is left without a signer', async () => {
    await suite.page.goto(draftUrl);
    await section().getByRole('heading', { name: 'Add a signer' }).waitFor();
    assert.equal(
      await suite.page.getByRole('button', { name: `Remove ${FIRST} from this draft` }).count(),
      0,
      'the only signer has no Remove',
    );
    assert.equal(
      await section().getByLabel('Send by e-mail').isChecked(),
      true,
      'e-mail ticked, as on New Request',
    );
    await expectAccessible(suite.page, 'a draft’s page with Add a signer');

    await signerIdField().fill(SECOND);
    const email = section().getByLabel('E-mail address');
    await email.fill(SECOND);
    await section().getByLabel('Language').selectOption('es');
    // Left focused (choosing an option does not move the focus), the field is scrolled back
    // into view when the full-page screenshot restores the viewport, and the click below
    // would land beside the button.
    await email.blur();
    await section().scrollIntoViewIfNeeded();
    await screenshot(suite.page, 'request-add-signer');
    await addButton().click();
    await suite.page
      .getByRole('status')
      .filter({ hasText: `${SECOND} was added to this draft` })
      .waitFor();
    assert.deepEqual(await rowHeaders(), [FIRST, SECOND], 'listed last');
    assert.equal(await signerIdField().inputValue(), '', 'a fresh form');
    const added = (await draft()).signers[1]!;
    assert.deepEqual(
      [added.signer_id, added.email, added.send_to, added.locale],
      [SECOND, SECOND, { email: true, mobile_number: false }, 'es'],
    );

    await suite.page.getByRole('button', { name: `Remove ${FIRST} from this draft` }).click();
    const notice = suite.page
      .getByRole('status')
      .filter({ hasText: `${FIRST} was removed from this draft.` });
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', /This field has no signer now:\s*signature\./);
    assert.deepEqual(await rowHeaders(), [SECOND]);
    const after = await draft();
    assert.deepEqual(
      after.signers.map((s) => s.signer_id),
      [SECOND],
    );
    assert.deepEqual(
      after.fields.map((f) => [f.name, f.assigned_to]),
      [['signature', null]],
    );
    assert.equal(await suite.page.getByRole('button', { name: /^Remove / }).count(), 0, 'one signer left');
    // History is read from the Request's events: once both are recorded, the page shows them.
    await eventually(
      async () => {
        const { data } = await suite.json(`/v1.1/requests/${draftId}/events`);
        const types = (data as { type: string }[]).map((e) => e.type);
        return types.includes('request.signer_added') && types.includes('request.signer_removed')
          ? true
          : undefined;
      },
      30_000,
      250,
    );
    await suite.page.reload();
    const history = suite.page.getByRole('region', { name: 'History' });
    await history.getByText(`Signer added: ${SECOND}`).waitFor();
    await history.getByText(`Signer removed: ${FIRST} — field left unassigned: signature`).waitFor();
    await expectAccessible(suite.page, 'a draft’s page after a signer was removed');
  });

  it('shows a signer already on the draft refused beside its field, keeping what was typed', async () => {
    await suite.page.goto(draftUrl);
    await signerIdField().fill(SECOND);
    await section().getByLabel('Send by e-mail').uncheck();
    await addButton().click();
    const error = section().locator('#add-signer-id-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /already a signer of this Request/);
    assert.equal(await signerIdField().getAttribute('aria-invalid'), 'true');
    assert.equal(await signerIdField().inputValue(), SECOND, 'as typed');
    assert.equal(await section().getByLabel('Send by e-mail').isChecked(), false, 'as ticked');
    const alert = suite.page.getByRole('alert');
    await alert.getByRole('link', { name: /^Signer id:/ }).waitFor();
    assert.match((await alert.textContent()) ?? '', /No signer was added\./);
    assert.equal((await draft()).signers.length, 1, 'nothing added');
    await expectAccessible(suite.page, 'a draft’s page with Add a signer refused');
  });

  it('offers neither Add a signer nor Remove on a sent Request', async () => {
    await suite.page.goto(suite.url);
    await suite.page.locator('h1 .state-sent').waitFor();
    assert.equal(await section().count(), 0);
    assert.equal(await suite.page.getByRole('button', { name: /^Remove / }).count(), 0);
  });
});
