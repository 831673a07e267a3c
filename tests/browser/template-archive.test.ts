import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import type { GatewayJson } from './support/sent-request.js';
import {
  expectAccessible,
  launchChromium,
  openTab,
  ownerWithTemplate,
  screenshot,
} from './support/web-app.js';

const PASSWORD = 'template archive browser test password 42';

/**
 * A contract template's life after it is published, in real headless Chromium, against the
 * whole built system: archived (ADR 3250), gone from the templates list and from New
 * Request, listed among the archived ones, a Request already made with it still sent, then
 * unarchived and offered again; duplicated (ADR 3260) into a draft that is edited and
 * published, a second Duplicate of the same form making no second copy; deleted (ADR 3430),
 * gone from every list while the Request made with it still opens; axe-core on each page.
 */
describe('web application in headless Chromium: a published template archived, duplicated and deleted', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  let json: GatewayJson;
  let site: number;
  let serviceId: number;

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_template_archive' });
    web = `${system.gatewayUrl}/app`;
    const owner = 'owner@acme-archive.example';
    // A template that stays in use, so that New Request always has one to offer.
    ({
      json,
      site,
      template: serviceId,
    } = await ownerWithTemplate(system, {
      account: 'Acme archive',
      owner,
      password: PASSWORD,
      template: { name: 'Service agreement', html: '<p>Agreement with {{client_name}}</p>' },
    }));

    browser = await launchChromium();
    ({ page, problems } = await openTab(browser));
    await page.goto(`${web}/sign-in`);
    await page.getByLabel('E-mail').fill(owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Requests/ }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'no console or script errors');
  });

  const templateLink = (name: string) => page.getByRole('link', { name, exact: true });
  const templateBox = (name: string) => page.getByRole('checkbox', { name: new RegExp(name) });

  let templateId: number;
  let templateUrl: string;
  let madeId: string;

  it('archives a published template: it leaves the list and New Request, and is listed among the archived', async () => {
    await page.goto(`${web}/templates/new`);
    await page.getByLabel('Name').fill('Consulting agreement');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByText('Created as a draft.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Archive', exact: true }).count(), 0, 'not a draft');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published: Requests can now use this template.').waitFor();
    templateUrl = page.url().replace(/\?.*$/, '');
    templateId = Number(/\/templates\/(\d+)$/.exec(templateUrl)?.[1]);
    assert.ok(templateId > 0, templateUrl);
    // A Request made with it before it is archived, sent afterwards.
    const made = await json(
      `/v1.1/sites/${site}/requests`,
      'POST',
      {
        contracts: [templateId],
        signers: [{ signer_id: 'ann@client.example', send_to: { email: true } }],
        render_data: { client_name: 'Ann', client_company: 'Client Ltd' },
      },
      201,
    );
    madeId = String(made.id);
    await expectAccessible(page, 'a published template with Archive');

    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page
      .getByRole('status')
      .filter({
        hasText:
          'Archived: new Requests cannot use this template. Requests already made with it are unaffected.',
      })
      .waitFor();
    assert.equal(page.url(), `${templateUrl}?done=archive`);
    await page.getByRole('heading', { level: 1, name: 'Consulting agreement published archived' }).waitFor();
    await page.locator('dl.facts dt', { hasText: 'Archived' }).waitFor();
    await expectAccessible(page, 'a template just archived');

    await page.goto(`${web}/templates`);
    await templateLink('Service agreement').waitFor();
    assert.equal(await templateLink('Consulting agreement').count(), 0, 'left out of the templates list');
    await page.getByRole('link', { name: 'Archived templates' }).click();
    await page.getByRole('heading', { level: 1, name: /^Archived contract templates/ }).waitFor();
    await templateLink('Consulting agreement').waitFor();
    assert.equal(await templateLink('Service agreement').count(), 0, 'only the archived ones');
    await expectAccessible(page, 'the archived templates');

    await page.goto(`${web}/requests/new`);
    await templateBox('Service agreement').waitFor();
    assert.equal(await templateBox('Consulting agreement').count(), 0, 'left out of New Request');

    // The Request made before is unaffected: it is sent from its page.
    await page.goto(`${web}/requests/${madeId}`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('The Request was sent').waitFor();
    // Its page names the archived template, linked.
    await page
      .locator('dt:text-is("Contracts") + dd')
      .getByRole('link', { name: 'Consulting agreement', exact: true })
      .waitFor();
  });

  it('unarchives it from the archived list: it is listed and offered again', async () => {
    await page.goto(`${web}/templates?archived=true`);
    await templateLink('Consulting agreement').click();
    await page.getByText('This template is archived: new Requests cannot use it.').waitFor();
    await expectAccessible(page, 'an archived template');
    await screenshot(page, 'template-archived');
    await page.getByRole('button', { name: 'Unarchive' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Unarchived: Requests can use this template again.' })
      .waitFor();
    assert.equal(page.url(), `${templateUrl}?done=unarchive`);
    await page.getByRole('button', { name: 'Archive', exact: true }).waitFor();
    await expectAccessible(page, 'an unarchived template');

    await page.getByRole('link', { name: 'Templates', exact: true }).first().click();
    await templateLink('Consulting agreement').waitFor();
    await page.getByRole('link', { name: 'Archived templates' }).click();
    await page.getByText('No archived templates.').waitFor();
    await page.goto(`${web}/requests/new`);
    await templateBox('Consulting agreement').waitFor();
  });

  it('lists the Requests made with it, from its page, and no other', async () => {
    // A Request made with the other template, which the list must leave out.
    const other = await json(
      `/v1.1/sites/${site}/requests`,
      'POST',
      {
        contracts: [serviceId],
        signers: [{ signer_id: 'bob@client.example', send_to: { email: true } }],
        render_data: { client_name: 'Bob' },
      },
      201,
    );
    const requestLink = (id: string) => page.getByRole('link', { name: `${id.slice(0, 8)} (Request ${id})` });
    await page.goto(templateUrl);
    await page.getByRole('link', { name: 'Requests made with this template' }).click();
    await page.getByRole('heading', { level: 1, name: /^Requests/ }).waitFor();
    assert.equal(page.url(), `${web}/requests?contract_id=${templateId}`);
    const status = page.getByRole('status');
    await status.filter({ hasText: '1 Request made with template Consulting agreement.' }).waitFor();
    await requestLink(madeId).waitFor();
    assert.equal(await requestLink(String(other.id)).count(), 0, 'only the Requests made with it');
    assert.equal(await page.locator('tbody tr').count(), 1);
    await expectAccessible(page, 'the Requests made with a template');
    await screenshot(page, 'requests-by-template');

    // The state filter keeps the template; the link back drops it only.
    await page.getByLabel('State').selectOption('draft');
    await page.getByRole('button', { name: 'Filter' }).click();
    await status
      .filter({ hasText: '0 Requests in state draft made with template Consulting agreement.' })
      .waitFor();
    await page.getByRole('link', { name: 'Show every template’s' }).click();
    await status.filter({ hasText: '1 Request in state draft.' }).waitFor();
    assert.equal(page.url(), `${web}/requests?state=draft`);
    await requestLink(String(other.id)).waitFor();
  });

  it('duplicates it into a draft, edited and published; the same form sent again makes no second copy', async () => {
    await page.goto(templateUrl);
    await page
      .getByText('A published template never changes. To change it, duplicate it, edit the draft copy')
      .waitFor();
    const copyForm = page.locator('form[action$="/copy"]');
    const sent = {
      _csrf: await copyForm.locator('input[name="_csrf"]').inputValue(),
      idempotency_key: await copyForm.locator('input[name="idempotency_key"]').inputValue(),
    };
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'A draft copy was made. Edit it, then publish it to use it in Requests.' })
      .waitFor();
    await page.getByRole('heading', { level: 1, name: 'Consulting agreement (copy) draft' }).waitFor();
    const copyUrl = page.url().replace(/\?.*$/, '');
    const copyId = Number(/\/templates\/(\d+)$/.exec(copyUrl)?.[1]);
    assert.ok(copyId > templateId, copyUrl);
    assert.equal(page.url(), `${copyUrl}?done=copied`);
    await expectAccessible(page, 'a draft copy just made');
    await screenshot(page, 'template-copy');

    // A second click of the same form (the same Idempotency-Key) lands on the same copy.
    const again = await page.request.post(`${templateUrl}/copy`, {
      form: sent,
      headers: { origin: new URL(web).origin },
      maxRedirects: 0,
    });
    assert.equal(again.status(), 303);
    assert.equal(again.headers().location, `/app/templates/${copyId}?done=copied`);

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit draft template' }).waitFor();
    const source = await page.getByLabel('HTML').inputValue();
    assert.match(source, /This agreement is made with \{\{client_name\}\}/, 'the same content');
    await page.getByLabel('Name').fill('Consulting agreement 2031');
    await page.getByLabel('HTML').fill(source.replace('This agreement', 'This 2031 agreement'));
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('The draft was saved.').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published: Requests can now use this template.').waitFor();
    assert.equal(page.url(), `${copyUrl}?done=publish`);
    await page.getByRole('heading', { level: 1, name: 'Consulting agreement 2031 published' }).waitFor();
    await expectAccessible(page, 'a copy published');

    // The source never changed; both are offered, and the list has one copy only.
    await page.goto(`${web}/templates`);
    await templateLink('Consulting agreement 2031').waitFor();
    await templateLink('Consulting agreement').waitFor();
    assert.equal(await page.getByRole('link', { name: /\(copy\)/ }).count(), 0, 'one copy only');
    await page.goto(templateUrl);
    await page.getByRole('heading', { level: 1, name: 'Consulting agreement published' }).waitFor();
    const kept = await page.locator('pre.highlight').innerText();
    assert.ok(kept.includes('This agreement is made with') && !kept.includes('2031'), kept);
    await page.goto(`${web}/requests/new`);
    await templateBox('Consulting agreement 2031').waitFor();
  });

  it('deletes it from its page, behind a disclosure: gone from the lists, its Request unaffected', async () => {
    await page.goto(templateUrl);
    const button = page.getByRole('button', { name: 'Delete template' });
    assert.equal(await button.isVisible(), false, 'closed until asked for');
    await page.getByText('Delete this template…').click();
    await button.waitFor();
    await page.getByText('A deleted template leaves every list and New Request').waitFor();
    await expectAccessible(page, 'a published template’s Delete, open');
    await screenshot(page, 'template-delete');
    await button.click();
    await page.getByRole('status').filter({ hasText: 'The template was deleted.' }).waitFor();
    assert.equal(page.url(), `${web}/templates?done=deleted`);
    await templateLink('Consulting agreement 2031').waitFor();
    assert.equal(await templateLink('Consulting agreement').count(), 0, 'left out of the templates list');
    await expectAccessible(page, 'the templates list after a deletion');

    await page.goto(`${web}/requests/new`);
    await templateBox('Consulting agreement 2031').waitFor();
    assert.equal(
      await page.getByRole('checkbox', { name: /Consulting agreement(?! 2031)/ }).count(),
      0,
      'left out of New Request',
    );
    const gone = await page.goto(templateUrl);
    assert.equal(gone?.status(), 404);
    // The Request made with it opens as before, sent, naming its template as deleted, unlinked.
    await page.goto(`${web}/requests/${madeId}`);
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'sent' }).waitFor();
    const contracts = page.locator('dt:text-is("Contracts") + dd');
    assert.equal((await contracts.innerText()).trim(), `template ${templateId} (deleted)`);
    assert.equal(await contracts.getByRole('link').count(), 0, 'no link to a page that is gone');
  });
});
