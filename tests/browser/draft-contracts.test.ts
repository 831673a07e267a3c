import assert from 'node:assert/strict';
import { eventually } from '@esign/testing';
import { sentRequestPage } from './support/sent-request-page.js';
import { expectAccessible, screenshot } from './support/web-app.js';

const PASSWORD = 'draft contracts browser test password 42';
const SIGNER = 'client-1';
const FIRST = 'Service agreement';
const SECOND = 'Schedule A';

interface FieldShown {
  readonly name: string;
  readonly assigned_to: string | null;
}

/**
 * A draft's contracts added and removed on its page in real headless Chromium, against the
 * whole built system (ADR 3300): a draft of one template, a second published template added
 * through **Add a contract** (the notice naming its field with no signer) and listed, the
 * first removed with its **Remove**; a template added meanwhile elsewhere refused beside the
 * select; the two then put in a new order with **Move up** (ADR 3310), History naming the
 * new order; nothing of this on a sent Request; axe-core on each page.
 */
describe('web application in headless Chromium: adding and removing a draft’s contracts', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_draft_contracts',
    account: 'Acme draft contracts',
    owner: 'owner@acme-draft-contracts.example',
    password: PASSWORD,
    signer: 'ann@client.example',
  });
  let draftUrl = '';
  let draftId = '';
  let first = 0;
  let second = 0;
  const draft = async () => {
    const r = await suite.json(`/v1.1/requests/${draftId}`);
    return { contracts: r.contracts as number[], fields: r.fields as FieldShown[] };
  };
  const section = () => suite.page.getByRole('region', { name: 'Contracts', exact: true });
  const adding = () => suite.page.getByRole('region', { name: 'Add a contract' });
  const select = () => adding().getByLabel('Contract template');
  const listed = () => section().locator('ul.contracts li a').allTextContents();

  before(async () => {
    // A draft of the sent Request's contract, and a second template published on its Site.
    const sent = await suite.json(`/v1.1/requests/${suite.id}`);
    first = (sent.contracts as number[])[0]!;
    const made = await suite.json(
      `/v1.1/sites/${String(sent.site_id)}/requests`,
      'POST',
      {
        contracts: sent.contracts,
        signers: [{ signer_id: SIGNER, signer: { email: 'cy@client.example' }, send_to: { email: true } }],
        fields: [{ name: 'signature', assigned_to: SIGNER }],
        render_data: { client_name: 'Cy Young' },
      },
      201,
    );
    draftId = String(made.id);
    draftUrl = suite.url.replace(suite.id, draftId);
    const template = await suite.json(
      `/v1.1/sites/${String(sent.site_id)}/contracts`,
      'POST',
      {
        type: 'html',
        name: SECOND,
        html: '<p>Schedule for {{client_name}}, starting {{start}}</p>',
        fields: [
          { name: 'signature', type: 'signature' },
          { name: 'start_date', type: 'text' },
        ],
      },
      201,
    );
    second = Number(template.id);
    await suite.json(`/v1.1/contracts/${String(second)}/publish`, 'POST');
  });

  it('adds a second template through the form, lists it, and removes the first', async () => {
    await suite.page.goto(draftUrl);
    await adding().getByRole('heading', { name: 'Add a contract' }).waitFor();
    assert.deepEqual(await listed(), [FIRST]);
    assert.equal(
      await section()
        .getByRole('button', { name: /^Remove / })
        .count(),
      0,
      'the only one',
    );
    assert.deepEqual(
      (await select().locator('option').allTextContents()).map((o) => o.replace(/\s+/g, ' ').trim()),
      [`${SECOND} (HTML, template ${String(second)})`],
      'only the template not on the draft',
    );
    await expectAccessible(suite.page, 'a draft’s page with Add a contract');

    await select().selectOption(String(second));
    await select().blur();
    await adding().getByRole('button', { name: 'Add contract' }).click();
    const added = suite.page.getByRole('status').filter({ hasText: `${SECOND} was added` });
    await added.waitFor();
    assert.match(
      ((await added.textContent()) ?? '').replace(/\s+/g, ' '),
      /its field start_date has no signer yet: choose it under Fields/,
    );
    assert.deepEqual(await listed(), [FIRST, SECOND], 'listed last');
    const after = await draft();
    assert.deepEqual(after.contracts, [first, second]);
    assert.deepEqual(
      after.fields.map((f) => [f.name, f.assigned_to]),
      [
        ['signature', SIGNER],
        ['start_date', null],
      ],
    );
    assert.match(
      (await adding().textContent()) ?? '',
      /there is none left to add/,
      'no published template left',
    );

    await section()
      .getByRole('button', { name: `Remove ${FIRST} from this draft` })
      .click();
    await suite.page
      .getByRole('status')
      .filter({ hasText: `${FIRST} was removed from this draft` })
      .waitFor();
    assert.deepEqual(await listed(), [SECOND]);
    assert.deepEqual((await draft()).contracts, [second]);
    assert.equal(
      await section()
        .getByRole('button', { name: /^Remove / })
        .count(),
      0,
      'one left',
    );
    await eventually(
      async () => {
        const { data } = await suite.json(`/v1.1/requests/${draftId}/events`);
        const types = (data as { type: string }[]).map((e) => e.type);
        return types.includes('request.contract_added') && types.includes('request.contract_removed')
          ? true
          : undefined;
      },
      30_000,
      250,
    );
    await suite.page.reload();
    const history = suite.page.getByRole('region', { name: 'History' });
    await history.getByText(`Contract added: ${SECOND} — field added: start_date`).waitFor();
    await history.getByText(`Contract removed: ${FIRST}`).waitFor();
  });

  it('shows a template added meanwhile refused beside the select', async () => {
    await suite.page.goto(draftUrl);
    await select().selectOption(String(first));
    // The page is now stale: the same template is added through the API.
    await suite.json(`/v1.1/requests/${draftId}/contracts`, 'POST', { contract_id: first }, 201);
    await adding().getByRole('button', { name: 'Add contract' }).click();
    const error = adding().locator('#add-contract-id-error');
    await error.waitFor();
    assert.equal(await select().getAttribute('aria-invalid'), 'true');
    const alert = suite.page.getByRole('alert');
    await alert.getByRole('link', { name: /^Contract template:/ }).waitFor();
    assert.match((await alert.textContent()) ?? '', /No contract was added\./);
    assert.deepEqual((await draft()).contracts, [second, first], 'added once');
    await expectAccessible(suite.page, 'a draft’s page with Add a contract refused');
  });

  it('puts the contracts in a new order with Move up, and History names it', async () => {
    await suite.page.goto(draftUrl);
    await section().waitFor();
    assert.deepEqual(await listed(), [SECOND, FIRST], 'as the previous test left them');
    const moves = async () => {
      const buttons = await section()
        .getByRole('button', { name: /^Move / })
        .all();
      return Promise.all(buttons.map((b) => b.getAttribute('aria-label')));
    };
    assert.deepEqual(await moves(), [`Move down: ${SECOND}`, `Move up: ${FIRST}`], 'none beyond either end');
    await expectAccessible(suite.page, 'a draft’s page with Move up and Move down');

    await section()
      .getByRole('button', { name: `Move up: ${FIRST}` })
      .click();
    const moved = suite.page.getByRole('status').filter({ hasText: `${FIRST} moved up` });
    await moved.waitFor();
    assert.match(((await moved.textContent()) ?? '').replace(/\s+/g, ' '), /it is now contract 1 of 2/);
    assert.deepEqual(await listed(), [FIRST, SECOND]);
    assert.deepEqual((await draft()).contracts, [first, second]);
    assert.deepEqual(await moves(), [`Move down: ${FIRST}`, `Move up: ${SECOND}`]);
    await expectAccessible(suite.page, 'a draft’s page after Move up');
    await screenshot(suite.page, 'request-contracts');

    await eventually(
      async () => {
        const { data } = await suite.json(`/v1.1/requests/${draftId}/events`);
        return (data as { type: string }[]).some((e) => e.type === 'request.contracts_reordered')
          ? true
          : undefined;
      },
      30_000,
      250,
    );
    await suite.page.reload();
    await suite.page
      .getByRole('region', { name: 'History' })
      .getByText(`Contracts put in a new order: ${FIRST}, ${SECOND}`)
      .waitFor();
  });

  it('offers neither Add a contract, Remove nor a move on a sent Request', async () => {
    await suite.page.goto(suite.url);
    await suite.page.locator('h1 .state-sent').waitFor();
    assert.equal(await adding().count(), 0);
    assert.equal(await section().count(), 0);
    assert.equal(await suite.page.getByRole('button', { name: /^Remove / }).count(), 0);
    assert.equal(await suite.page.getByRole('button', { name: /^Move / }).count(), 0);
  });
});
