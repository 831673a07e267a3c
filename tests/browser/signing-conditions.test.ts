import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import { json, linkFromMail, openPage, SITE, useSigningFlow } from './support/signing.js';

/** ADRs 3710, 3760, 3790: fields asked for only while a box is ticked, or is not, or a choice has one of some options. */
describe('signer flow in headless Chromium: fields asked for only when another is ticked or chosen', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('shows a field while its condition holds, hides it when not, and signs without it', async () => {
    const fields = [
      { name: 'married', type: 'checkbox' },
      { name: 'spouse_name', type: 'text', shown_if: { field: 'married' } },
      { name: 'emergency_contact', type: 'text', shown_if: { field: 'married', equals: false } },
      { name: 'plan', type: 'choice', options: ['Basic', 'Pro', 'Team'] },
      { name: 'seats', type: 'text', validation: 'numbers_only', shown_if: { field: 'plan', equals: 'Pro' } },
      { name: 'billing_contact', type: 'text', shown_if: { field: 'plan', equals: ['Pro', 'Team'] } },
      { name: 'signature', type: 'signature' },
    ];
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Household',
        html: '<h1>Household</h1><p>The member lists who lives with them.</p>',
        fields,
      },
      201,
    );
    await json('POST', `/v1.1/contracts/${created.id}/publish`);
    const member = `hc-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [created.id],
        signers: [{ signer_id: member, send_to: { email: true } }],
        fields: fields.map(({ name }) => ({ name, assigned_to: member })),
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(await linkFromMail(member)))?.status(), 200);

    const spouse = page.getByRole('textbox', { name: 'Spouse name (required)' });
    const seats = page.getByRole('textbox', { name: 'Seats (required)' });
    assert.equal(await spouse.isVisible(), false, 'hidden until the box is ticked');
    assert.equal(await seats.isVisible(), false, 'hidden until Pro is chosen');
    const contact = page.getByRole('textbox', { name: 'Emergency contact (required)' });
    assert.equal(await contact.isVisible(), true, 'shown while the box is not ticked');
    await page.getByRole('checkbox', { name: 'Married' }).check();
    assert.equal(await contact.isVisible(), false, 'hidden once it is');
    await page.getByRole('radio', { name: 'Pro' }).check();
    assert.equal(await spouse.isVisible(), true);
    assert.equal(await seats.isVisible(), true);
    await page.getByText('Asked only when “Married” is ticked.').waitFor();
    await spouse.fill('Sam Member');
    await seats.fill('12');
    // Any of several options (ADR 3790): shown for Pro and for Team, not for Basic.
    const billing = page.getByRole('textbox', { name: 'Billing contact (required)' });
    assert.equal(await billing.isVisible(), true);
    await page.getByText('Asked only when “Plan” is Pro or Team.').waitFor();
    await billing.fill('billing@example.com');
    await expectAccessible(page, 'the signing page with its conditional fields shown');
    await signerScreenshot(page, 'conditions');

    // Unticked again: the field is hidden and disabled, so neither the browser nor the service asks for it.
    await page.getByRole('checkbox', { name: 'Married' }).uncheck();
    await page.getByRole('radio', { name: 'Team' }).check();
    assert.equal(await seats.isVisible(), false, 'Pro only');
    assert.equal(await billing.isVisible(), true, 'Pro or Team');
    await page.getByRole('radio', { name: 'Basic' }).check();
    assert.equal(await billing.isVisible(), false, 'not for Basic');
    assert.equal(await spouse.isVisible(), false);
    await page.getByText('Asked only when “Married” is not ticked.').waitFor();
    await contact.fill('Jo Member');
    await page.getByLabel('Type your full name').fill('Mo Member');
    await page.getByLabel(/I have reviewed the document above/).check();
    await Promise.all([
      page.waitForURL(/\/sign\/done/),
      page.getByRole('button', { name: 'Sign', exact: true }).click(),
    ]);
    const after = await json<RequestView>('GET', `/v1.1/requests/${view.id}`);
    assert.equal(after.state, 'completed');
    const entered = await json<{ data: { name: string; value: unknown }[] }>(
      'GET',
      `/v1.1/requests/${view.id}/field_values`,
    );
    assert.deepEqual(
      entered.data.filter((f) => f.name !== 'signature').map((f) => [f.name, f.value]),
      [
        ['married', false],
        ['spouse_name', ''],
        ['emergency_contact', 'Jo Member'],
        ['plan', 'Basic'],
        ['seats', ''],
        ['billing_contact', ''],
      ],
    );
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
