import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import { json, linkFromMail, openPage, SITE, useSigningFlow } from './support/signing.js';

/** ADRs 3600, 3830: text fields that ask for a kind of value, on the page the e-mail opened. */
describe('signer flow in headless Chromium: text fields that ask for a kind of value', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('types each value with its keyboard, is refused a phone number of 7 digits beside it, and signs', async () => {
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Contact details',
        html: '<h1>Contact details</h1><p>Where we can reach the customer.</p>',
        fields: [
          { name: 'phone', type: 'text', validation: 'phone_number' },
          { name: 'work_email', type: 'text', validation: 'email_address' },
          { name: 'zip', type: 'text', validation: 'zip_code' },
          { name: 'vat_number', type: 'text', validation: 'vat_number' },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    await json('POST', `/v1.1/contracts/${created.id}/publish`);
    const customer = `cara-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [created.id],
        signers: [{ signer_id: customer, send_to: { email: true } }],
        fields: ['phone', 'work_email', 'zip', 'vat_number', 'signature'].map((name) => ({
          name,
          assigned_to: customer,
        })),
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(await linkFromMail(customer)))?.status(), 200);

    const phone = page.getByLabel(/^Phone/);
    assert.equal(await phone.getAttribute('type'), 'tel');
    await page.getByText('A 10-digit phone number, like 555-014-3000', { exact: true }).waitFor();
    assert.equal(await page.getByLabel(/^Work email/).getAttribute('type'), 'email');
    assert.equal(await page.getByLabel(/^Zip/).getAttribute('inputmode'), 'numeric');
    await phone.fill('555-0143');
    await page.getByLabel(/^Work email/).fill('cara@work.example.com');
    await page.getByLabel(/^Zip/).fill('12345');
    // ADR 3830: typed as written, its check digit one off.
    const vat = page.getByLabel(/^Vat number/);
    assert.equal(await vat.getAttribute('autocapitalize'), 'characters');
    await vat.fill('DE 136 695 977');
    await page.getByLabel('Type your full name').fill('Cara Customer');
    await page.getByLabel(/I have reviewed the document above/).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    const beside = page.locator('p.error', {
      hasText: 'Phone: must be a 10-digit phone number, like 555-014-3000',
    });
    await beside.waitFor();
    assert.equal(
      await phone.getAttribute('aria-describedby'),
      `${await beside.getAttribute('id')} f-0-hint`,
      'the refusal, then the hint',
    );
    assert.equal(await page.getByLabel(/^Zip/).inputValue(), '12345', 'what was typed is kept');
    await page
      .locator('p.error', {
        hasText: 'Vat number: must be a European VAT number with its country code, like DE136695976',
      })
      .waitFor();
    await expectAccessible(page, 'the signing page refusing a phone number');
    await phone.scrollIntoViewIfNeeded();
    await signerScreenshot(page, 'validation');

    await phone.fill('(555) 014-3000');
    await vat.fill('DE 136 695 976');
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
    assert.equal(entered.data.find((f) => f.name === 'vat_number')?.value, 'DE 136 695 976', 'kept as typed');
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('tells the format before typing, brings up the keyboard for it, is refused a value written otherwise, and signs (ADR 3870)', async () => {
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Vehicle details',
        html: '<h1>Vehicle details</h1><p>The vehicle the policy covers.</p>',
        fields: [
          { name: 'plate', type: 'text', format: 'AA-9999' },
          { name: 'policy', type: 'text', format: '999-999-999' },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    await json('POST', `/v1.1/contracts/${created.id}/publish`);
    const driver = `dana-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [created.id],
        signers: [{ signer_id: driver, send_to: { email: true } }],
        fields: ['plate', 'policy', 'signature'].map((name) => ({ name, assigned_to: driver })),
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(await linkFromMail(driver)))?.status(), 200);

    const plate = page.getByLabel(/^Plate/);
    await page.getByText('Written as AA-9999, where 9 is a digit, A is a letter', { exact: true }).waitFor();
    assert.equal(await plate.getAttribute('autocapitalize'), 'characters');
    assert.equal(await plate.getAttribute('maxlength'), '7');
    const policy = page.getByLabel(/^Policy/);
    assert.equal(await policy.getAttribute('inputmode'), 'numeric', 'a format of digits: the number pad');
    await plate.fill('AB 1234');
    await policy.fill('123-456-789');
    await page.getByLabel('Type your full name').fill('Dana Driver');
    await page.getByLabel(/I have reviewed the document above/).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.locator('p.error', { hasText: 'Plate: must be written as AA-9999' }).waitFor();
    await expectAccessible(page, 'the signing page refusing a value written otherwise');
    await plate.scrollIntoViewIfNeeded();
    await signerScreenshot(page, 'format');

    await plate.fill('AB-1234');
    await page.getByLabel(/I have reviewed the document above/).check();
    await Promise.all([
      page.waitForURL(/\/sign\/done/),
      page.getByRole('button', { name: 'Sign', exact: true }).click(),
    ]);
    assert.equal((await json<RequestView>('GET', `/v1.1/requests/${view.id}`)).state, 'completed');
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
