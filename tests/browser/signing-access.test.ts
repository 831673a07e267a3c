import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import {
  json,
  linkFromMail,
  newRequest,
  openPage,
  SITE,
  template,
  useSigningFlow,
} from './support/signing.js';

/** Links that must not open the contract at once: not the signer's turn, a code first, replaced. */
describe('signer flow in headless Chromium: turn order, access codes and replaced links', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('signing in order: a later signer’s link shows "not your turn yet", accessibly, and never the contract', async () => {
    const first = `first-${Date.now()}@example.com`;
    const second = `second-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [template],
        signers: [
          { signer_id: first, send_to: { email: true }, order: 1 },
          { signer_id: second, send_to: { email: true }, order: 2 },
        ],
        fields: ['full_name', 'agree', 'plan', 'signature'].map((name) => ({ name, assigned_to: first })),
        render_data: { tenant: 'Alice <Example> & Sons', address: '12 Harbour Road, Springfield' },
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    const response = await page.goto(view.signers[1]!.request_url);
    assert.equal(response?.status(), 409);
    await page.getByRole('heading', { level: 1, name: 'It is not your turn to sign yet' }).waitFor();
    assert.equal(await page.locator('form').count(), 0, 'nothing to sign or decline');
    assert.ok(!(await page.content()).includes('Harbour Road'), 'the contract is never shown');
    await expectAccessible(page, 'the "not your turn yet" page');
    await signerScreenshot(page, 'not-your-turn');
    // The 409 itself shows as a failed load; a CSP violation or script error would not.
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('signer authentication: the code-entry page, accessible, refuses a wrong code and opens the contract on the right one', async () => {
    const signer = `coded-${Date.now()}@example.com`;
    const view = await json<RequestView>(
      'POST',
      `/v1.1/sites/${SITE.id}/requests`,
      {
        contracts: [template],
        signers: [
          {
            signer_id: signer,
            send_to: { email: true },
            authentication: { method: 'access_code', access_code: 'harbour-7731' },
          },
        ],
        fields: ['full_name', 'agree', 'plan', 'signature'].map((name) => ({ name, assigned_to: signer })),
        render_data: { tenant: 'Alice <Example> & Sons', address: '12 Harbour Road, Springfield' },
      },
      201,
    );
    await json('POST', `/v1.1/requests/${view.id}/send`);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(view.signers[0]!.request_url))?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Enter your code' }).waitFor();
    assert.ok(!(await page.content()).includes('Harbour Road'), 'the contract is not shown before the code');
    await expectAccessible(page, 'the code-entry page');
    await signerScreenshot(page, 'code-entry');

    await page.getByLabel('Access code').fill('wrong-code');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(/That code is not right\. 4 tries left/).waitFor();
    await expectAccessible(page, 'the code-entry page with an error');

    await page.getByLabel('Access code').fill('harbour-7731');
    await Promise.all([
      page.waitForURL((url) => url.searchParams.has('auth')),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    await page.getByRole('heading', { level: 1, name: 'Residential lease' }).waitFor();
    assert.ok((await page.locator('article.contract').innerText()).includes('12 Harbour Road'));
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });

  it('LOW 8: a link the sender replaced shows an accessible "replaced" page, and the new one opens', async () => {
    const view = await newRequest('carol@example.com', template);
    const old = await linkFromMail('carol@example.com');
    const after = await json<RequestView>(
      'POST',
      `/v1.1/requests/${view.id}/signers/${encodeURIComponent('carol@example.com')}/execution_url`,
      {},
    );
    const fresh = after.signers[0]!.request_url;
    assert.notEqual(fresh, old);
    const { page, problems } = await openPage();
    const answer = await page.goto(old);
    assert.equal(answer?.status(), 410);
    await page.getByRole('heading', { name: 'This link was replaced' }).waitFor();
    assert.equal(await page.locator('form').count(), 0, 'no form on a replaced link');
    await expectAccessible(page, 'the replaced-link page');
    const opened = await page.goto(fresh);
    assert.equal(opened?.status(), 200);
    // The 410 itself shows as a failed load; nothing else may (CSP, scripts).
    assert.deepEqual(
      problems.filter((p) => !p.startsWith('Failed to load resource')),
      [],
    );
    await page.context().close();
  });
});
