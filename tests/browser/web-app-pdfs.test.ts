// A Site's PDFs in the web application, in headless Chromium against the whole built system:
// a PDF template's file and a completed Request's executed PDF, each shown in its page in
// Chromium's own PDF viewer (ADR 3270) and downloaded; axe-core on each page.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '@esign/testing';
import { expectAccessible, openTab, PHONE, screenshot } from './support/web-app.js';
import { gatewayCall, signInAs, webAppAccount, type Account } from './support/web-app-account.js';

describe('web application in headless Chromium: PDFs shown in their pages', function () {
  this.timeout(300_000); // generous: the machine may be busy; nothing here measures speed
  const suite = webAppAccount('web_app_pdfs');
  let browser: Browser;
  let account: Account;
  let page: Page;
  let web: string;
  before(async () => {
    ({ browser, account, page, web } = suite);
    await signInAs(suite, account.owner);
  });

  const api = gatewayCall(suite);
  /** The page's frame whose address matches, once it has one. */
  const frameAt = (url: RegExp) => () => Promise.resolve(page.frames().find((f) => url.test(f.url())));
  /** A published HTML template of the production Site, with one signature field. */
  const publishedTemplate = async (): Promise<number> => {
    const made = await api(account.token, 'POST', `/v1.1/sites/${account.production}/contracts`, {
      type: 'html',
      name: 'Consulting agreement',
      html: '<h1>Agreement</h1><p>The consultant advises the client for a fee of $3.</p>',
      fields: [{ name: 'signature', type: 'signature' }],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = Number(made.body!.id);
    assert.equal((await api(account.token, 'POST', `/v1.1/contracts/${id}/publish`)).status, 200);
    return id;
  };

  it('uploads a PDF template with rules for its fields, lists them, shows the PDF and downloads it as uploaded', async () => {
    const pdf = await PDFDocument.create();
    const sheet = pdf.addPage([600, 400]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    sheet.drawText('Order form', { x: 50, y: 345, size: 22, font });
    sheet.drawText('Company', { x: 50, y: 328, size: 11, font });
    sheet.drawText('I accept the terms of sale', { x: 78, y: 255, size: 11, font });
    pdf.getForm().createTextField('company').addToPage(sheet, { x: 50, y: 300, width: 200, height: 24 });
    pdf.getForm().createCheckBox('accept').addToPage(sheet, { x: 50, y: 250, width: 20, height: 20 });
    const dir = await mkdtemp(join(tmpdir(), 'web-app-'));
    const file = join(dir, 'order-form.pdf');
    await writeFile(file, await pdf.save());
    await page.goto(`${web}/templates`);
    await page.getByRole('link', { name: 'Upload a PDF' }).click();
    await expectAccessible(page, 'PDF upload');
    await page.getByLabel('Name').fill('Order form');
    await page.getByLabel('PDF file').setInputFiles(file);
    // Rules for the PDF's own fields, by their names in the file (ADR 3670).
    await page.getByLabel('Field rules (optional)').fill('company: text min 2\naccept: checkbox required');
    await expectAccessible(page, 'PDF upload with field rules');
    await screenshot(page, 'template-pdf-upload');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('cell', { name: 'company' }).waitFor();
    await page.getByRole('cell', { name: 'accept' }).waitFor();
    await page.getByRole('cell', { name: 'at least 2 characters' }).waitFor();
    await page.getByRole('cell', { name: 'must be ticked' }).waitFor();
    // A draft's rules change without the file uploaded again: a line for each of its fields.
    await page.getByRole('link', { name: 'Edit field rules' }).click();
    const rules = page.getByLabel('Field rules (optional)');
    assert.equal(await rules.inputValue(), 'company: text min 2\naccept: checkbox required');
    await rules.fill('company: text min 3 max 60\naccept: checkbox required');
    await expectAccessible(page, 'a PDF draft’s field rules');
    await screenshot(page, 'template-pdf-rules');
    await page.getByRole('button', { name: 'Save the rules' }).click();
    await page.getByRole('cell', { name: 'at least 3 characters; at most 60 characters' }).waitFor();
    // The file is shown in the page (Chromium's PDF viewer takes the frame), not only saved.
    const preview = page.getByTitle('The PDF of Order form');
    await preview.scrollIntoViewIfNeeded();
    await eventually(frameAt(/\/templates\/\d+\/document\/inline$/));
    await eventually(frameAt(/^chrome-extension:\/\//));
    await expectAccessible(page, 'a PDF template with its preview');
    await screenshot(page, 'template-pdf');
    // The file comes back as uploaded (ADR 3270).
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the PDF' }).click(),
    ]);
    assert.ok((await readFile(await download.path())).equals(await readFile(file)), 'the bytes uploaded');
    await rm(dir, { recursive: true, force: true });
  });

  it('shows and downloads the executed PDF of a Request its signer completed', async () => {
    const signer = 'lin@client.example';
    const template = await publishedTemplate();
    const created = await api(account.token, 'POST', `/v1.1/sites/${account.production}/requests`, {
      contracts: [template],
      signers: [{ signer_id: signer }],
      fields: [{ name: 'signature', assigned_to: signer }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = String(created.body!.id);
    assert.equal((await api(account.token, 'POST', `/v1.1/requests/${id}/send`)).status, 200);
    const executionUrl = (created.body!.signers as { request_url: string }[])[0]!.request_url;
    const signing = await openTab(browser, PHONE);
    await signing.page.goto(executionUrl);
    await signing.page.getByLabel('Type your full name').fill('Lin Example');
    await signing.page.getByLabel(/I have reviewed the document above/).check();
    await signing.page.getByRole('button', { name: 'Sign', exact: true }).click();
    await signing.page.waitForURL(/\/sign\/done/);
    await signing.context.close();

    await page.goto(`${web}/requests/${id}`);
    await page.getByText('completed').first().waitFor();
    // Shown in the page too, in Chromium's PDF viewer.
    await page.getByTitle('The executed PDF').scrollIntoViewIfNeeded();
    await eventually(frameAt(new RegExp(`/requests/${id}/download/inline$`)));
    await eventually(frameAt(/^chrome-extension:\/\//));
    // What the signer entered, read back (ADR 3730): the signature as the name typed.
    const entered = page.getByRole('table', { name: 'Every field with its value' });
    assert.deepEqual(
      (await entered.locator('tbody tr td').allTextContents()).slice(0, 3).map((t) => t.trim()),
      ['signature', 'Lin Example', signer],
    );
    await expectAccessible(page, 'a completed Request with its executed PDF');
    await screenshot(page, 'request-executed');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download executed PDF' }).click(),
    ]);
    const path = await download.path();
    assert.equal((await readFile(path)).subarray(0, 5).toString(), '%PDF-');
    // The same values saved as CSV (ADR 3750), under the name the application gives it.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /^Download as CSV/ }).click(),
    ]);
    assert.equal(csv.suggestedFilename(), `request-${id.slice(0, 8)}-field-values.csv`);
    const lines = (await readFile(await csv.path(), 'utf8')).split('\r\n');
    assert.equal(lines[0], '\uFEFFfield,type,signer,value,signed_at');
    assert.match(
      lines[1] ?? '',
      new RegExp(`^signature,signature,${signer.replace(/[.+]/g, '\\$&')},Lin Example,\\d{4}-`),
    );
    // Every sent Request of its template, a row each (ADR 3780), from the template's page.
    await page.goto(`${web}/templates/${template}`);
    await expectAccessible(page, 'a published template with its link to what signers entered');
    const [all] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download what signers entered, as CSV' }).click(),
    ]);
    assert.equal(all.suggestedFilename(), `template-${template}-field-values.csv`);
    const rows = (await readFile(await all.path(), 'utf8')).split('\r\n');
    assert.equal(rows[0], '\uFEFFrequest_id,title,state,sent_at,completed_at,signature');
    assert.ok(
      rows.some((row) => row.startsWith(`${id},,completed,`) && row.endsWith(',Lin Example')),
      rows.join('\n'),
    );
  });

  it('links the file a signer attached from What the signers entered, and saves it under its name (ADR 3920)', async () => {
    const signer = 'ari@client.example';
    const made = await api(account.token, 'POST', `/v1.1/sites/${account.production}/contracts`, {
      type: 'html',
      name: 'Rental application',
      html: '<h1>Rental application</h1><p>Attach a photo of your ID.</p>',
      fields: [
        { name: 'id_document', type: 'attachment' },
        { name: 'signature', type: 'signature' },
      ],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const template = Number(made.body!.id);
    assert.equal((await api(account.token, 'POST', `/v1.1/contracts/${template}/publish`)).status, 200);
    const created = await api(account.token, 'POST', `/v1.1/sites/${account.production}/requests`, {
      contracts: [template],
      signers: [{ signer_id: signer }],
      fields: ['id_document', 'signature'].map((name) => ({ name, assigned_to: signer })),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = String(created.body!.id);
    assert.equal((await api(account.token, 'POST', `/v1.1/requests/${id}/send`)).status, 200);
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 3)]);
    const signing = await openTab(browser, PHONE);
    await signing.page.goto((created.body!.signers as { request_url: string }[])[0]!.request_url);
    await signing.page
      .getByLabel('Id document')
      .setInputFiles({ name: 'id-card.jpg', mimeType: 'image/jpeg', buffer: photo });
    await signing.page.getByLabel('Type your full name').fill('Ari Lee');
    await signing.page.getByLabel(/I have reviewed the document above/).check();
    await signing.page.getByRole('button', { name: 'Sign', exact: true }).click();
    await signing.page.waitForURL(/\/sign\/done/);
    await signing.context.close();

    await page.goto(`${web}/requests/${id}`);
    const entered = page.getByRole('table', { name: 'Every field with its value' });
    const link = entered.getByRole('link', { name: /^id-card\.jpg/ });
    await link.scrollIntoViewIfNeeded();
    await expectAccessible(page, 'a completed Request with a file its signer attached');
    await screenshot(page, 'request-attachment');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), 'id-card.jpg');
    assert.ok((await readFile(await download.path())).equals(photo), 'the bytes the signer chose');
  });
});
