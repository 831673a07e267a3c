import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import type { Page } from 'playwright-core';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import { json, linkFromMail, openPage, SITE, useSigningFlow } from './support/signing.js';

/** A sent Request of a template of `fields`, named `name`, and its one signer's page, opened. */
const signingPage = async (fields: readonly { readonly name: string }[], name: string, prefix: string) => {
  const created = await json<{ id: number }>(
    'POST',
    `/v1.1/sites/${SITE.id}/contracts`,
    { type: 'html', name, html: `<h1>${name}</h1><p>The member answers what applies.</p>`, fields },
    201,
  );
  await json('POST', `/v1.1/contracts/${created.id}/publish`);
  const member = `${prefix}-${Date.now()}@example.com`;
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
  return { view, page, problems };
};

/** Signs the open page as `name`, and answers what the signer entered but the signature. */
const signAndRead = async (page: Page, id: string, name: string) => {
  await page.getByLabel('Type your full name').fill(name);
  await page.getByLabel(/I have reviewed the document above/).check();
  await Promise.all([
    page.waitForURL(/\/sign\/done/),
    page.getByRole('button', { name: 'Sign', exact: true }).click(),
  ]);
  assert.equal((await json<RequestView>('GET', `/v1.1/requests/${id}`)).state, 'completed');
  const entered = await json<{ data: { name: string; value: unknown }[] }>(
    'GET',
    `/v1.1/requests/${id}/field_values`,
  );
  return entered.data.filter((f) => f.name !== 'signature').map((f) => [f.name, f.value]);
};

/**
 * ADRs 3710, 3760, 3790, 3800, 3810, 3840, 3850: fields asked for only while a box is ticked, or is not,
 * or a choice has one of some options, or a field is filled in, or left empty, that field
 * perhaps asked for on a condition of its own, or one another signer answered; any of
 * several conditions.
 */
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
    const { view, page, problems } = await signingPage(fields, 'Household', 'hc');

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
    assert.deepEqual(await signAndRead(page, view.id, 'Mo Member'), [
      ['married', false],
      ['spouse_name', ''],
      ['emergency_contact', 'Jo Member'],
      ['plan', 'Basic'],
      ['seats', ''],
      ['billing_contact', ''],
    ]);
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('shows a field while a text or date field is filled in, or while it is left empty, as the signer types', async () => {
    const fields = [
      { name: 'company', type: 'text', required: false },
      { name: 'vat_number', type: 'text', shown_if: { field: 'company' } },
      { name: 'occupation', type: 'text', shown_if: { field: 'company', equals: false } },
      { name: 'moved_in_on', type: 'date', required: false },
      { name: 'previous_address', type: 'text', shown_if: { field: 'moved_in_on' } },
      { name: 'signature', type: 'signature' },
    ];
    const { view, page, problems } = await signingPage(fields, 'Membership', 'hf');
    const company = page.getByRole('textbox', { name: 'Company', exact: true });
    const vat = page.getByRole('textbox', { name: 'Vat number (required)' });
    const occupation = page.getByRole('textbox', { name: 'Occupation (required)' });
    const previous = page.getByRole('textbox', { name: 'Previous address (required)' });
    assert.equal(await vat.isVisible(), false, 'hidden until the company is filled in');
    assert.equal(await occupation.isVisible(), true, 'shown while the company is left empty');
    assert.equal(await previous.isVisible(), false, 'hidden until a date is given');
    // Each key counts (the input event), not only leaving the field: the signer sees it at once.
    await company.pressSequentially('Acme');
    assert.equal(await vat.isVisible(), true, 'shown while typing');
    assert.equal(await occupation.isVisible(), false);
    await page.getByText('Asked only when “Company” is filled in.').waitFor();
    await company.fill('   ');
    assert.equal(await vat.isVisible(), false, 'spaces alone are empty');
    await page.getByText('Asked only when “Company” is left empty.').waitFor();
    await company.fill('Acme Ltd');
    await vat.fill('GB123456789');
    await page.getByLabel('Moved in on', { exact: true }).fill('2026-03-01');
    assert.equal(await previous.isVisible(), true, 'shown once a date is given');
    await previous.fill('1 Old Road');
    await expectAccessible(page, 'the signing page with fields shown by a text and a date filled in');
    await signerScreenshot(page, 'conditions-filled-in');
    assert.deepEqual(await signAndRead(page, view.id, 'Ann Member'), [
      ['company', 'Acme Ltd'],
      ['vat_number', 'GB123456789'],
      ['occupation', ''],
      ['moved_in_on', '2026-03-01'],
      ['previous_address', '1 Old Road'],
    ]);
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('hides a field whose condition names a field hidden itself, and shows it again with that one (ADR 3810)', async () => {
    const fields = [
      { name: 'married', type: 'checkbox' },
      { name: 'spouse_works', type: 'checkbox', shown_if: { field: 'married' } },
      { name: 'spouse_employer', type: 'text', shown_if: { field: 'spouse_works' } },
      { name: 'signature', type: 'signature' },
    ];
    const { view, page, problems } = await signingPage(fields, 'Household', 'hn');
    const works = page.getByRole('checkbox', { name: 'Spouse works' });
    const employer = page.getByRole('textbox', { name: 'Spouse employer (required)' });
    assert.equal(await works.isVisible(), false, 'hidden until married is ticked');
    await page.getByRole('checkbox', { name: 'Married' }).check();
    assert.equal(await works.isVisible(), true);
    assert.equal(await employer.isVisible(), false, 'hidden until the spouse works');
    await works.check();
    assert.equal(await employer.isVisible(), true);
    await employer.fill('Acme');
    await expectAccessible(page, 'the signing page with a field shown under another conditional one');
    await signerScreenshot(page, 'conditions-nested');
    // Unticking the first hides both, though the second is still ticked.
    await page.getByRole('checkbox', { name: 'Married' }).uncheck();
    assert.equal(await works.isVisible(), false);
    assert.equal(await employer.isVisible(), false, 'hidden with the field its condition names');
    assert.deepEqual(await signAndRead(page, view.id, 'Lee Member'), [
      ['married', false],
      ['spouse_works', false],
      ['spouse_employer', ''],
    ]);
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('decides a condition on a field another signer answered by what they signed with (ADR 3840)', async () => {
    const fields = [
      { name: 'married', type: 'checkbox' },
      { name: 'spouse_works', type: 'checkbox', shown_if: { field: 'married' } },
      { name: 'spouse_employer', type: 'text', shown_if: { field: 'spouse_works' } },
      { name: 'witness', type: 'text', shown_if: { field: 'married', equals: false } },
      { name: 'signature', type: 'signature' },
    ];
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Joint lease',
        html: '<h1>Joint lease</h1><p>The tenant answers first, then the guarantor.</p>',
        fields,
      },
      201,
    );
    await json('POST', `/v1.1/contracts/${created.id}/publish`);
    const [tenant, guarantor] = ['ht', 'hg'].map((prefix) => `${prefix}-${Date.now()}@example.com`);
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [created.id],
        signers: [tenant, guarantor].map((signer_id) => ({ signer_id, send_to: { email: true } })),
        fields: fields.map(({ name }) => ({ name, assigned_to: name === 'married' ? tenant : guarantor })),
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);

    const first = await openPage();
    assert.equal((await first.page.goto(await linkFromMail(tenant!)))?.status(), 200);
    await first.page.getByRole('checkbox', { name: 'Married' }).check();
    await first.page.getByLabel('Type your full name').fill('Tia Tenant');
    await first.page.getByLabel(/I have reviewed the document above/).check();
    await Promise.all([
      first.page.waitForURL(/\/sign\/done/),
      first.page.getByRole('button', { name: 'Sign', exact: true }).click(),
    ]);
    await first.page.context().close();

    const { page, problems } = await openPage();
    assert.equal((await page.goto(await linkFromMail(guarantor!)))?.status(), 200);
    const works = page.getByRole('checkbox', { name: 'Spouse works' });
    const employer = page.getByRole('textbox', { name: 'Spouse employer (required)' });
    assert.equal(await works.isVisible(), true, 'the tenant is married: asked');
    assert.equal(await page.getByText(/Married/).count(), 0, 'no sentence naming the tenant’s answer');
    assert.equal(await page.getByRole('textbox', { name: /Witness/ }).count(), 0, 'not on the page at all');
    assert.equal(await employer.isVisible(), false, 'still follows the guarantor’s own box');
    await works.check();
    await employer.fill('Acme');
    await expectAccessible(page, 'the signing page with a field another signer’s answer asks for');
    await signerScreenshot(page, 'conditions-answered');
    assert.deepEqual(await signAndRead(page, view.id, 'Gus Guarantor'), [
      ['married', true],
      ['spouse_works', true],
      ['spouse_employer', 'Acme'],
      ['witness', ''],
    ]);
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('shows a field while any of several conditions holds (ADR 3850)', async () => {
    const fields = [
      { name: 'married', type: 'checkbox' },
      { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
      { name: 'contact', type: 'text', shown_if: [{ field: 'married' }, { field: 'plan', equals: 'Pro' }] },
      { name: 'signature', type: 'signature' },
    ];
    const { view, page, problems } = await signingPage(fields, 'Membership', 'ha');
    const contact = page.getByRole('textbox', { name: 'Contact (required)' });
    assert.equal(await contact.isVisible(), false, 'hidden while neither holds');
    await page.getByRole('checkbox', { name: 'Married' }).check();
    assert.equal(await contact.isVisible(), true, 'shown by the first');
    await page.getByRole('checkbox', { name: 'Married' }).uncheck();
    await page.getByRole('radio', { name: 'Basic' }).check();
    assert.equal(await contact.isVisible(), false);
    await page.getByRole('radio', { name: 'Pro' }).check();
    assert.equal(await contact.isVisible(), true, 'shown by the second');
    await page.getByText('Asked only when “Married” is ticked or “Plan” is “Pro”.').waitFor();
    await contact.fill('Kim Contact');
    await expectAccessible(page, 'the signing page with a field shown on either of two conditions');
    await signerScreenshot(page, 'conditions-any');
    assert.deepEqual(await signAndRead(page, view.id, 'Ari Member'), [
      ['married', false],
      ['plan', 'Pro'],
      ['contact', 'Kim Contact'],
    ]);
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
