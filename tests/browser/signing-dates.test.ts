import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import { json, linkFromMail, openPage, SITE, useSigningFlow } from './support/signing.js';

/** ADRs 3570 and 3580: a date the signer picks, and the date they sign on, on the page the e-mail opened. */
describe('signer flow in headless Chromium: date fields', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('picks a date with the browser’s picker, is told the signing date is filled in, and signs', async () => {
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Tenancy start',
        html: '<h1>Tenancy start</h1><p>The tenant moves in on the date below.</p>',
        fields: [
          { name: 'move_in_on', type: 'date' },
          { name: 'signed_on', type: 'date_signed' },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    await json('POST', `/v1.1/contracts/${created.id}/publish`);
    const tenant = `tess-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [created.id],
        signers: [{ signer_id: tenant, send_to: { email: true } }],
        fields: ['move_in_on', 'signed_on', 'signature'].map((name) => ({ name, assigned_to: tenant })),
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(await linkFromMail(tenant)))?.status(), 200);

    const moveIn = page.getByLabel(/^Move in on/);
    assert.equal(await moveIn.getAttribute('type'), 'date', 'the browser’s date picker');
    await page.getByText('Signed on: filled in with the date you sign on (UTC, as YYYY-MM-DD).').waitFor();
    await moveIn.fill('2031-05-01');
    await page.getByLabel('Type your full name').fill('Tess Tenant');
    await page.getByLabel(/I have reviewed the document above/).check();
    await expectAccessible(page, 'the signing page with a date and the date signed');
    await moveIn.scrollIntoViewIfNeeded();
    await signerScreenshot(page, 'dates');

    await Promise.all([
      page.waitForURL(/\/sign\/done/),
      page.getByRole('button', { name: 'Sign', exact: true }).click(),
    ]);
    const after = await json<RequestView>('GET', `/v1.1/requests/${view.id}`);
    assert.equal(after.state, 'completed');
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
