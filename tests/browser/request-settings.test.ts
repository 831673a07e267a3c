import assert from 'node:assert/strict';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'request settings browser test password 42';
const SIGNER = 'ann@client.example';
const DAY_MS = 86_400_000;

/** An instant `days` from now, to the minute, as the Expires at field takes it (UTC). */
const typedIn = (days: number): string => {
  const at = new Date(Date.now() + days * DAY_MS);
  at.setUTCSeconds(0, 0);
  return at.toISOString().slice(0, 16);
};

/**
 * **Expiry and reminders** on a sent Request's page in real headless Chromium, against the
 * whole built system (ADR 3150): the section prefilled with the Request's expiry and
 * interval, both changed and saved, the new values on the page and in the API; a past
 * date refused beside its field, as typed; axe-core on each state.
 */
describe('web application in headless Chromium: changing a Request’s expiry and reminders', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const created = { expiresAt: typedIn(10), days: 3 };
  const suite = sentRequestPage({
    label: 'web_request_settings',
    account: 'Acme request settings',
    owner: 'owner@acme-request-settings.example',
    password: PASSWORD,
    signer: SIGNER,
    request: { expires_at: `${created.expiresAt}:00Z`, reminder_interval_days: created.days },
  });
  const getRequest = () => suite.json(`/v1.1/requests/${suite.id}`);
  /**
   * A draft of the sent Request's contract for one e-mail signer, with `more` of a create's
   * body; answers its id, after opening its page.
   */
  const openDraft = async (signerId: string, email: string, more: Record<string, unknown> = {}) => {
    const sent = await getRequest();
    const draft = await suite.json(
      `/v1.1/sites/${String(sent.site_id)}/requests`,
      'POST',
      {
        contracts: sent.contracts,
        signers: [{ signer_id: signerId, signer: { email }, send_to: { email: true } }],
        ...more,
      },
      201,
    );
    const id = String(draft.id);
    await suite.page.goto(suite.url.replace(suite.id, id));
    return id;
  };

  const section = () => suite.page.getByRole('region', { name: 'Expiry and reminders' });
  const expiresField = () => section().getByLabel('Expires at (optional, UTC)');
  const daysField = () => section().getByLabel('Remind every … days (optional)');
  const save = () => section().getByRole('button', { name: 'Save expiry and reminders' });
  /** The instant the section's "Next automatic reminder" line shows. */
  const nextReminderShown = () =>
    section().locator('p', { hasText: 'Next automatic reminder' }).locator('time').getAttribute('datetime');

  it('changes the expiry and the reminder interval: the notice, the new values on the page and in the API', async () => {
    await suite.page.goto(suite.url);
    await section().getByRole('heading', { name: 'Expiry and reminders' }).waitFor();
    assert.equal(await expiresField().inputValue(), created.expiresAt, 'prefilled with the expiry');
    assert.equal(await daysField().inputValue(), String(created.days), 'prefilled with the interval');
    const before = await getRequest();
    assert.equal(await nextReminderShown(), before.next_reminder_at, 'the next reminder shown');
    await expectAccessible(suite.page, 'the Request page with Expiry and reminders');

    const later = typedIn(30);
    await expiresField().fill(later);
    await daysField().fill('7');
    // Left focused, the field is scrolled back into view when the full-page screenshot
    // restores the viewport, and the click below would land beside the button.
    await daysField().blur();
    await screenshot(suite.page, 'request-settings');
    await save().click();
    await suite.page
      .getByRole('status')
      .filter({ hasText: 'The Request’s expiry and automatic reminders were saved.' })
      .waitFor();
    assert.equal(await expiresField().inputValue(), later, 'the new expiry in the form');
    assert.equal(await daysField().inputValue(), '7', 'the new interval in the form');
    const after = await getRequest();
    assert.equal(after.expires_at, new Date(`${later}:00Z`).toISOString());
    assert.equal(after.reminder_interval_days, 7);
    assert.notEqual(after.next_reminder_at, before.next_reminder_at, 'the next reminder rescheduled');
    const facts = (await suite.page.locator('dl.facts').textContent()) ?? '';
    assert.match(facts, new RegExp(`Expires\\s*${later.replace('T', ' ')}:00 UTC`));
    assert.match(facts, /Automatic reminders\s*every 7 days;\s*next/);
    assert.equal(await nextReminderShown(), after.next_reminder_at, 'the rescheduled reminder shown');
    await expectAccessible(suite.page, 'the Request page after saving the expiry and reminders');
  });

  it('shows a past date refused beside its field, keeping what was typed', async () => {
    await suite.page.goto(suite.url);
    const kept = await expiresField().inputValue();
    await expiresField().fill('2020-01-01T12:00');
    await save().click();
    const error = section().locator('#expires_at-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /future/);
    assert.equal(await expiresField().getAttribute('aria-invalid'), 'true');
    assert.equal(await expiresField().inputValue(), '2020-01-01T12:00', 'as typed');
    await suite.page
      .getByRole('alert')
      .getByRole('link', { name: /^Expires at/ })
      .waitFor();
    assert.match(
      (await suite.page.getByRole('alert').textContent()) ?? '',
      /The expiry and reminders were not changed\./,
    );
    assert.equal((await getRequest()).expires_at, new Date(`${kept}:00Z`).toISOString(), 'nothing changed');
    await expectAccessible(suite.page, 'the Request page with a refused expiry');
  });

  it('changes a draft’s render data (ADR 3220): the notice, the values in the API, a token the contract lacks refused', async () => {
    const id = await openDraft('client-88', 'cy@client.example', {
      fields: [{ name: 'signature', assigned_to: 'client-88' }],
      render_data: { client_name: 'Cy Young' },
    });
    const region = suite.page.getByRole('region', { name: 'Render data' });
    const field = region.getByLabel('Render data (optional)');
    assert.equal(await field.inputValue(), 'client_name=Cy Young');
    await field.fill('client_name=Cy Young Ltd');
    await expectAccessible(suite.page, 'a draft’s page with its render data');
    await region.scrollIntoViewIfNeeded();
    await screenshot(suite.page, 'request-render-data');
    await region.getByRole('button', { name: 'Save render data' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'The render data was saved' }).waitFor();
    assert.deepEqual((await suite.json(`/v1.1/requests/${id}`)).render_data, { client_name: 'Cy Young Ltd' });
    assert.equal(await field.inputValue(), 'client_name=Cy Young Ltd');

    await field.fill('client_name=Cy\nnope=1');
    await region.getByRole('button', { name: 'Save render data' }).click();
    await region.locator('#render_data-error').waitFor();
    assert.match(
      (await region.locator('#render_data-error').textContent()) ?? '',
      /nope: "nope" is not a token/,
    );
    assert.equal(await field.inputValue(), 'client_name=Cy\nnope=1', 'as typed');
    assert.match(
      (await suite.page.getByRole('alert').textContent()) ?? '',
      /The render data was not changed\./,
    );
    assert.deepEqual((await suite.json(`/v1.1/requests/${id}`)).render_data, { client_name: 'Cy Young Ltd' });
    await expectAccessible(suite.page, 'a draft’s page with its render data refused');
  });

  it('assigns a draft’s unassigned field and sets its fields’ values (ADR 3220), after which it can be sent', async () => {
    // A template with a field of each kind (the Request's own has only a signature).
    const { site_id: site } = await getRequest();
    const order = await suite.json(
      `/v1.1/sites/${String(site)}/contracts`,
      'POST',
      {
        type: 'html',
        name: 'Order form',
        html: '<p>Order form</p>',
        fields: [
          { name: 'full_name', type: 'text', max_length: 40 },
          { name: 'agree', type: 'checkbox' },
          { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    await suite.json(`/v1.1/contracts/${String(order.id)}/publish`, 'POST');
    const id = await openDraft('client-99', 'di@client.example', {
      contracts: [order.id],
      fields: [
        { name: 'full_name', assigned_to: 'client-99', default_value: 'Di' },
        { name: 'agree', assigned_to: 'client-99' },
        { name: 'plan', assigned_to: 'client-99' },
      ],
    });
    const region = suite.page.getByRole('region', { name: 'Fields' });
    await region.getByText('1 unassigned').waitFor();
    const choice = region.getByRole('combobox', { name: 'Assigned to: signature' });
    assert.equal(await choice.inputValue(), '');
    await choice.selectOption('client-99');
    const name = region.getByRole('textbox', { name: 'Value: full_name' });
    const agree = region.getByRole('combobox', { name: 'Value: agree' });
    const plan = region.getByRole('combobox', { name: 'Value: plan' });
    assert.equal(await name.inputValue(), 'Di');
    assert.equal(await name.getAttribute('maxlength'), '40', 'the template’s limit');
    assert.deepEqual(await agree.locator('option').allTextContents(), ['(none)', 'Checked', 'Unchecked']);
    assert.deepEqual(await plan.locator('option').allTextContents(), ['(none)', 'Basic', 'Pro']);
    assert.equal(
      await region.getByLabel('Value: signature').count(),
      0,
      'a signature is signed, not pre-filled',
    );
    await name.fill('Di Young');
    await agree.selectOption({ label: 'Checked' });
    await plan.selectOption('Pro');
    // Left focused, the text box is scrolled back into view by the full-page screenshot.
    await name.blur();
    await expectAccessible(suite.page, 'a draft’s page with its fields’ signers and values');
    await region.scrollIntoViewIfNeeded();
    await screenshot(suite.page, 'request-fields');
    await region.getByRole('button', { name: 'Save fields' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'The fields were saved' }).waitFor();
    const fields = (await suite.json(`/v1.1/requests/${id}`)).fields as {
      name: string;
      assigned_to: string;
      default_value: string | boolean | null;
    }[];
    assert.deepEqual(
      fields.map((f) => [f.name, f.assigned_to, f.default_value]),
      [
        ['full_name', 'client-99', 'Di Young'],
        ['agree', 'client-99', true],
        ['plan', 'client-99', 'Pro'],
        ['signature', 'client-99', null],
      ],
    );
    await suite.page.reload();
    assert.equal(await name.inputValue(), 'Di Young', 'the text value after a reload');
    assert.equal(await agree.inputValue(), 'true', 'Checked after a reload');
    assert.equal(await plan.inputValue(), 'Pro', 'the option after a reload');
    assert.equal(await region.getByText(/unassigned/).count(), 0);
    await expectAccessible(suite.page, 'a draft’s page with its fields saved');
    await suite.page.getByRole('button', { name: 'Send', exact: true }).click();
    await suite.page.locator('h1 .state-sent').waitFor();
    // Once sent, the values are shown, no longer edited.
    const sent = suite.page.locator('h2', { hasText: 'Fields' }).locator('+ .table-wrap');
    assert.equal(await sent.getByRole('combobox').count(), 0);
    assert.equal(await sent.getByRole('textbox').count(), 0);
    assert.match((await sent.textContent()) ?? '', /full_name\s*client-99\s*Di Young/);
  });

  it('sets who gets a copy of a sent Request (ADR 3230): the notice, the addresses in the API and on the page', async () => {
    await suite.page.goto(suite.url);
    const region = suite.page.getByRole('region', { name: 'CC' });
    const field = region.getByLabel('CC (optional)');
    assert.equal(await field.inputValue(), '');
    await field.fill('Legal@client.example, ops@client.example');
    await expectAccessible(suite.page, 'a sent Request’s page with its CC addresses typed');
    await region.scrollIntoViewIfNeeded();
    await screenshot(suite.page, 'request-cc');
    await region.getByRole('button', { name: 'Save CC addresses' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'The CC addresses were saved' }).waitFor();
    assert.deepEqual((await getRequest()).cc, ['legal@client.example', 'ops@client.example']);
    assert.equal(await field.inputValue(), 'legal@client.example, ops@client.example');
    const facts = suite.page.locator('dt', { hasText: 'Copies to' }).locator('+ dd');
    assert.match((await facts.textContent()) ?? '', /legal@client\.example, ops@client\.example/);
    await expectAccessible(suite.page, 'a sent Request’s page with its CC addresses');
  });
});
