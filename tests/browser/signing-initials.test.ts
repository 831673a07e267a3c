import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import { json, linkFromMail, openPage, SITE, useSigningFlow } from './support/signing.js';

/** ADR 3900: initials fields, filled with the initials typed once beside the name. */
describe('signer flow in headless Chromium: initials fields', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('asks for the initials beside the name, is refused without them, and signs with them', async () => {
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Tenancy agreement',
        html: '<h1>Tenancy agreement</h1><p>Clause 4: no pets.</p><p>Clause 9: the deposit.</p>',
        fields: [
          { name: 'initials_clause_4', type: 'initials' },
          { name: 'initials_clause_9', type: 'initials' },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    await json('POST', `/v1.1/contracts/${created.id}/publish`);
    const tenant = `tara-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [created.id],
        signers: [{ signer_id: tenant, send_to: { email: true } }],
        fields: ['initials_clause_4', 'initials_clause_9', 'signature'].map((name) => ({
          name,
          assigned_to: tenant,
        })),
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(await linkFromMail(tenant)))?.status(), 200);

    const initials = page.getByLabel('Your initials');
    await page
      .getByText(
        'Written wherever the document asks for your initials: Initials clause 4, Initials clause 9.',
        {
          exact: true,
        },
      )
      .waitFor();
    assert.equal(await initials.getAttribute('autocapitalize'), 'characters');
    await page.getByLabel('Type your full name').fill('Tara Ann Ruiz');
    await page.getByLabel(/I have reviewed the document above/).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    const beside = page.locator('p.error', { hasText: 'Your initials: type your initials' });
    await beside.waitFor();
    assert.equal(await initials.getAttribute('aria-describedby'), 'initials-hint initials-error');
    await expectAccessible(page, 'the signing page asking for initials');
    await initials.scrollIntoViewIfNeeded();
    await signerScreenshot(page, 'initials');

    await initials.fill('T.A.R.');
    await page.getByLabel(/I have reviewed the document above/).check();
    await Promise.all([
      page.waitForURL(/\/sign\/done/),
      page.getByRole('button', { name: 'Sign', exact: true }).click(),
    ]);
    const entered = await json<{ data: { name: string; value: unknown }[] }>(
      'GET',
      `/v1.1/requests/${view.id}/field_values`,
    );
    assert.deepEqual(
      entered.data.filter((f) => f.name.startsWith('initials')).map((f) => f.value),
      ['T.A.R.', 'T.A.R.'],
    );
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
