import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import { json, linkFromMail, openPage, SITE, template, useSigningFlow } from './support/signing.js';

/**
 * ADRs 3560, 3630: a signer asks someone else to sign in their place, with a note for them,
 * from the page the e-mail opened.
 */
describe('signer flow in headless Chromium: asking someone else to sign', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('the form under "Someone else should sign?", its refusal, the page that says it was done, and the new signer’s link', async () => {
    const run = Date.now();
    const dora = `dora-${run}@example.com`;
    const erin = `erin-${run}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [template],
        signers: [{ signer_id: dora, send_to: { email: true } }],
        fields: ['full_name', 'agree', 'plan', 'signature'].map((name) => ({ name, assigned_to: dora })),
        render_data: { tenant: 'Alice <Example> & Sons', address: '12 Harbour Road, Springfield' },
        allow_reassign: true,
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const link = await linkFromMail(dora);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(link))?.status(), 200);
    await page.getByText('Someone else should sign?').click();
    const address = page.getByRole('textbox', { name: 'Their e-mail address' });
    await address.fill(dora.toUpperCase());
    // A note for them (ADR 3630), kept when the address is refused.
    const note = page.getByRole('textbox', { name: 'A note for them (optional)' });
    await note.fill('I am away until March.\nPlease sign for us.');
    await page.getByRole('button', { name: 'Ask them to sign' }).click();
    await page
      .getByText(/Their e-mail address: is your own address/)
      .first()
      .waitFor();
    assert.equal(await address.getAttribute('aria-invalid'), 'true');
    assert.equal(await note.inputValue(), 'I am away until March.\nPlease sign for us.');
    assert.equal(await note.getAttribute('aria-invalid'), null, 'the note was fine');
    await expectAccessible(page, 'the signing page with the reassign form refused');
    await address.scrollIntoViewIfNeeded();
    await signerScreenshot(page, 'reassign');

    await page.getByRole('textbox', { name: 'Their e-mail address' }).fill(erin);
    await page.getByRole('button', { name: 'Ask them to sign' }).click();
    await page.getByRole('heading', { level: 1, name: 'You asked someone else to sign' }).waitFor();
    assert.match(
      await page.locator('main').innerText(),
      new RegExp(`${erin.replace(/[.]/g, '\\.')} has been e-mailed`),
    );
    await expectAccessible(page, 'the page saying someone else was asked');
    await signerScreenshot(page, 'reassigned');

    const theirs = await linkFromMail(erin);
    assert.equal((await page.goto(theirs))?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Residential lease' }).waitFor();
    assert.equal((await page.goto(link))?.status(), 410);
    await page.getByRole('heading', { name: 'You are no longer asked to sign' }).waitFor();
    const after = await json<RequestView>('GET', `/v1.1/requests/${view.id}`);
    assert.equal(after.signers[0]!.signer_id, erin);
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
