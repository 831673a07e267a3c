import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from '@cantoo/pdf-lib';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { eventually } from '@esign/testing';
import { pdfText } from '../../services/requests/test/support/pdf-text.js';
import { expectAccessible, signerScreenshot } from './support/signer-pages.js';
import {
  api,
  clientBase,
  json,
  landings,
  linkFromMail,
  newRequest,
  openPage,
  pool,
  smtp,
  template,
  useSigningFlow,
} from './support/signing.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Signing and declining, from the e-mail to the client's redirect_url (the journey: support/signing.ts). */
describe('signer flow in headless Chromium: e-mail → page → sign or decline → redirect → executed PDF', function () {
  this.timeout(60_000);
  useSigningFlow();

  it('signs from the e-mail on a phone, lands on redirect_url, and the executed PDF holds the values', async () => {
    const view = await newRequest('alice@example.com', template);
    const link = await linkFromMail('alice@example.com');
    const { page, problems } = await openPage();
    const response = await page.goto(link);
    assert.equal(response?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Residential lease' }).waitFor();
    // render_data shows as text, escaped, inside the contract.
    assert.ok((await page.locator('article.contract').innerText()).includes('Alice <Example> & Sons'));

    await page.getByRole('textbox', { name: 'Full name (required)' }).fill('Alice Example');
    await page.getByRole('checkbox', { name: 'Agree', exact: true }).check();
    await page.getByRole('radio', { name: 'Furnished' }).check();
    await page.getByLabel('Type your full name').fill('Alice Example');
    // The drawing pad is there because script runs (nonce'd); draw a stroke with a finger-like path.
    const pad = page.locator('#pad');
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(box.x + 20 + i * 22, box.y + box.height * (0.7 - 0.4 * Math.sin(i / 2)));
    await page.mouse.up();
    assert.match(await page.locator('#drawn_signature').inputValue(), /^data:image\/png;base64,/);
    await page.getByLabel(/I have reviewed the document above/).check();

    const shot = join(ROOT, 'test-results', 'signing-page.png');
    await mkdir(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot, fullPage: true });
    if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(shot, join(ROOT, 'docs', 'signing-page.png'));

    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${clientBase}/signed`)),
      page.getByRole('button', { name: 'Sign', exact: true }).click(),
    ]);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('client_ref'), '42');
    assert.equal(landed.searchParams.get('request_id'), view.id);
    assert.equal(landed.searchParams.get('signer_id'), 'alice@example.com');
    assert.equal(landed.searchParams.get('status'), 'signed');
    // The client's server saw the same (the browser also asks it for a favicon: not a landing).
    const landing = landings.find(
      (l) => l.url.pathname === '/signed' && l.url.searchParams.get('request_id') === view.id,
    );
    assert.equal(landing?.url.searchParams.get('status'), 'signed');
    assert.deepEqual(problems, []);

    const signed = await json<RequestView>('GET', `/v1.1/requests/${view.id}`);
    assert.equal(signed.state, 'completed');
    assert.equal(signed.signers[0]!.state, 'signed');
    const act = await db.one(
      pool,
      t.type({ drawn: t.boolean, user_agent: t.string, ip: t.string }),
      sql.unsafe`SELECT drawn_signature IS NOT NULL AS drawn, user_agent, ip FROM signer_acts WHERE request_id = ${view.id}`,
    );
    assert.ok(act.drawn, 'the drawing was kept');
    assert.match(act.user_agent, /Chrome/);
    assert.equal(act.ip, '127.0.0.1');

    const download = await api('GET', `/v1.1/requests/${view.id}/download`);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    const bytes = new Uint8Array(await download.arrayBuffer());
    await writeFile(join(ROOT, 'test-results', 'executed.pdf'), bytes);
    const pdf = await PDFDocument.load(bytes);
    assert.equal(pdf.getTitle(), 'Executed: Residential lease');
    assert.ok(pdf.getPageCount() >= 3, 'cover, contract, audit trail');
    const { text } = await pdfText(bytes);
    for (const expected of [
      'Alice Example',
      'Furnished',
      'Yes',
      '& Sons',
      '12 Harbour Road, Springfield',
      'Audit trail',
      '127.0.0.1',
    ])
      assert.ok(text.includes(expected), `the executed PDF says "${expected}": ${JSON.stringify(text)}`);
    await page.context().close();
  });

  it('issue 23: the signing page in Spanish, lang="es", accessible, signs with its Spanish labels', async () => {
    await newRequest('ana@example.com', template, 'es');
    const mail = await eventually(
      () => Promise.resolve(smtp.received.find((m) => m.to.includes('ana@example.com'))),
      20_000,
    );
    assert.match(mail.mail.subject ?? '', /le ha enviado "Residential lease" para firmar$/);
    const link = await linkFromMail('ana@example.com');
    const { page, problems } = await openPage();
    assert.equal((await page.goto(link))?.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Residential lease' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'es');
    assert.equal(await page.locator('html').getAttribute('dir'), 'ltr');
    assert.equal(await page.title(), 'Firmar: Residential lease · Acme Rentals');

    await page.getByRole('textbox', { name: 'Full name (obligatorio)' }).fill('Ana Pérez');
    await page.getByRole('radio', { name: 'Standard' }).check();
    await page.getByLabel('Escriba su nombre completo').fill('Ana Pérez');
    await page.getByLabel(/He revisado el documento anterior/).check();
    await expectAccessible(page, 'the signing page in Spanish');
    await signerScreenshot(page, 'signing-es');
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${clientBase}/signed`)),
      page.getByRole('button', { name: 'Firmar', exact: true }).click(),
    ]);
    assert.deepEqual(problems, []);
  });

  it('declines with a reason: the Request is declined and the link then says so', async () => {
    const view = await newRequest('bob@example.com', template);
    const link = await linkFromMail('bob@example.com');
    const { page, problems } = await openPage();
    await page.goto(link);
    await page.getByText('Decline to sign').click();
    await page.getByLabel(/why you decline/).fill('The address is wrong.');
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${clientBase}/signed`)),
      page.getByRole('button', { name: 'Decline' }).click(),
    ]);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('status'), 'declined');
    assert.equal(landed.searchParams.get('signer_id'), 'bob@example.com');
    assert.equal((await json<RequestView>('GET', `/v1.1/requests/${view.id}`)).state, 'declined');
    assert.deepEqual(problems, []);

    const again = await page.goto(link);
    assert.equal(again?.status(), 410);
    await page.getByRole('heading', { name: 'You declined to sign' }).waitFor();
    assert.equal(await page.locator('form').count(), 0, 'no form on a closed link');
    await page.context().close();
  });

  it('a cancel the signers were told of (ADR 3500): the e-mail and the dead link both give its reason', async () => {
    const view = await newRequest('cy@example.com', template);
    const link = await linkFromMail('cy@example.com');
    const reason = 'The lease was drafted for the wrong flat. A corrected one follows.';
    await json('POST', `/v1.1/requests/${view.id}/cancel`, { reason, notify_signers: true });
    const told = await eventually(
      () =>
        Promise.resolve(
          smtp.received.find(
            (m) => m.to.includes('cy@example.com') && /^Cancelled:/.test(m.mail.subject ?? ''),
          ),
        ),
      20_000,
    );
    assert.ok((told.mail.text ?? '').includes(`The reason given: ${reason}`), told.mail.text);
    const { page, problems } = await openPage();
    assert.equal((await page.goto(link))?.status(), 410);
    await page.getByRole('heading', { name: 'This request was cancelled' }).waitFor();
    assert.ok((await page.locator('main').innerText()).includes(`The reason given: ${reason}`));
    assert.equal(await page.locator('form').count(), 0, 'no form on a closed link');
    await expectAccessible(page, 'a cancelled Request’s link, with the reason');
    await signerScreenshot(page, 'cancelled');
    // The page's own 410 is logged as a failed load; nothing else may be.
    assert.deepEqual(
      problems.filter((p) => !p.includes('status of 410')),
      [],
    );
    await page.context().close();
  });

  it('a signer replaced by someone else (ADR 3550): their link says so, the new signer’s opens', async () => {
    const view = await newRequest('dee@example.com', template);
    const link = await linkFromMail('dee@example.com');
    const replaced = await json<RequestView>(
      'POST',
      `/v1.1/requests/${view.id}/signers/dee%40example.com/replace`,
      {
        signer_id: 'eve@example.com',
        notify: false,
      },
    );
    const { page, problems } = await openPage();
    assert.equal((await page.goto(link))?.status(), 410);
    await page.getByRole('heading', { name: 'You are no longer asked to sign' }).waitFor();
    assert.match(
      await page.locator('main').innerText(),
      /Someone else was asked to sign this document in your place/,
    );
    assert.equal(await page.locator('form').count(), 0, 'no form on a dead link');
    await expectAccessible(page, 'a replaced signer’s link');
    await signerScreenshot(page, 'replaced');
    assert.equal((await page.goto(replaced.signers[0]!.request_url))?.status(), 200, 'Eve’s link opens');
    assert.deepEqual(
      problems.filter((p) => !p.includes('status of 410')),
      [],
    );
    await page.context().close();
  });
});
