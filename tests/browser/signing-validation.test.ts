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
});
