import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import { json, linkFromMail, openPage, SITE, useSigningFlow } from './support/signing.js';

/** A PNG as its first bytes show it, and some more. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(40_000, 7),
]);

/** ADR 3920: attachment fields, a file chosen on the signer's page and kept once received. */
describe('signer flow in headless Chromium: attachment fields', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('takes a file, says it was received when the form comes back, and signs with it', async () => {
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Rental application',
        html: '<h1>Rental application</h1><p>Attach a photo of your ID, and a pay slip if you have one.</p>',
        fields: [
          { name: 'id_document', type: 'attachment' },
          { name: 'pay_slip', type: 'attachment', required: false },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    await json('POST', `/v1.1/contracts/${created.id}/publish`);
    const applicant = `ari-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [created.id],
        signers: [{ signer_id: applicant, send_to: { email: true } }],
        fields: ['id_document', 'pay_slip', 'signature'].map((name) => ({ name, assigned_to: applicant })),
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(await linkFromMail(applicant)))?.status(), 200);

    const id = page.getByLabel('Id document');
    assert.equal(await id.getAttribute('type'), 'file');
    await page.getByText('A PDF, PNG or JPEG file, at most 10 MB.').first().waitFor();
    await page.getByLabel('Type your full name').fill('Ari Lee');
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.locator('p.error', { hasText: 'Id document: attach a file' }).waitFor();

    // Chosen, but the consent is missing: the file is kept, and the page says so.
    await id.setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Received: passport.png (39 KB). Choose another file only to replace it.').waitFor();
    assert.equal(await page.getByLabel('Id document').getAttribute('required'), null, 'no longer required');
    await expectAccessible(page, 'the signing page with a file received');
    await page.getByLabel('Id document').scrollIntoViewIfNeeded();
    await signerScreenshot(page, 'attachments');

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
      entered.data.filter((f) => f.name !== 'signature').map((f) => [f.name, f.value]),
      [
        ['id_document', 'passport.png'],
        ['pay_slip', ''],
      ],
    );
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
