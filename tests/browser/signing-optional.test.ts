import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import { json, linkFromMail, openPage, SITE, useSigningFlow } from './support/signing.js';

/** ADR 3610: a field the signer may leave empty, and a checkbox they must tick. */
describe('signer flow in headless Chromium: optional fields and checkboxes that must be ticked', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('marks only what must be filled in or ticked, and signs with the optional field left empty', async () => {
    const created = await json<{ id: number }>(
      'POST',
      `/v1.1/sites/${SITE.id}/contracts`,
      {
        type: 'html',
        name: 'Membership',
        html: '<h1>Membership</h1><p>The member agrees to the club rules.</p>',
        fields: [
          { name: 'full_name', type: 'text' },
          { name: 'nickname', type: 'text', required: false },
          { name: 'accept_rules', type: 'checkbox', required: true },
          { name: 'newsletter', type: 'checkbox' },
          { name: 'plan', type: 'choice', options: ['Monthly', 'Yearly'], required: false },
          { name: 'signature', type: 'signature' },
        ],
      },
      201,
    );
    await json('POST', `/v1.1/contracts/${created.id}/publish`);
    const member = `mo-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [created.id],
        signers: [{ signer_id: member, send_to: { email: true } }],
        fields: ['full_name', 'nickname', 'accept_rules', 'newsletter', 'plan', 'signature'].map((name) => ({
          name,
          assigned_to: member,
        })),
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(await linkFromMail(member)))?.status(), 200);

    const rules = page.getByRole('checkbox', { name: 'Accept rules (required)' });
    assert.equal(await rules.getAttribute('required'), '', 'the box must be ticked');
    assert.equal(
      await page.getByRole('checkbox', { name: 'Newsletter', exact: true }).getAttribute('required'),
      null,
    );
    assert.equal(
      await page.getByRole('textbox', { name: 'Nickname', exact: true }).getAttribute('required'),
      null,
    );
    assert.equal(
      await page.getByRole('textbox', { name: 'Full name (required)' }).getAttribute('required'),
      '',
    );
    const noAnswer = page.getByRole('radio', { name: 'No answer' });
    assert.equal(await noAnswer.isChecked(), true, 'an optional choice starts unanswered');
    await page.getByRole('radio', { name: 'Yearly' }).check();
    await noAnswer.check();
    await page.getByRole('textbox', { name: 'Full name (required)' }).fill('Mo Member');
    await page.getByLabel('Type your full name').fill('Mo Member');
    await page.getByLabel(/I have reviewed the document above/).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.locator('p.error', { hasText: 'Accept rules: must be ticked to sign' }).waitFor();
    assert.equal(await rules.getAttribute('aria-invalid'), 'true');
    await expectAccessible(page, 'the signing page refusing an unticked box');
    await rules.scrollIntoViewIfNeeded();
    await signerScreenshot(page, 'optional');

    await rules.check();
    await page.getByLabel(/I have reviewed the document above/).check();
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
