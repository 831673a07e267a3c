import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { ownerWithSentRequest, type GatewayJson } from './support/sent-request.js';
import { expectAccessible, launchChromium, openTab, screenshot, signedInTab } from './support/web-app.js';

const PASSWORD = 'request history browser test password 42';
const SIGNER = 'ann@client.example';
/** The row of the signer's refused e-mail, with the reason their server gave. */
const BOUNCED = /^E-mail to ann@client\.example could not be delivered — .*550 5\.1\.1 No such user here/;

/**
 * **History** on a sent Request's page in real headless Chromium, against the whole built
 * system (ADR 3170): the sending and the signer's e-mail refused by their mail server (ADR
 * 3180), then a change of the automatic reminders through the API and the signer's first
 * view of their link, each as a row in plain English, as many rows as
 * `GET /v1.1/requests/:id/events` has entries; axe-core on each state.
 */
describe('web application in headless Chromium: a Request’s history', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let requestPath: string;
  let id: string;
  let json: GatewayJson;

  const section = () => page.getByRole('region', { name: 'History' });
  const table = () => section().getByRole('table', { name: 'What happened to this Request, oldest first' });
  /** The "What happened" cell of each row, in order. */
  const happenings = async () =>
    (await table().locator('tbody tr td:nth-child(2)').allTextContents()).map((s) =>
      s.replace(/\s+/g, ' ').trim(),
    );
  const events = async () => (await json(`/v1.1/requests/${id}/events`)).data as { type: string }[];

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_request_history' });
    const owner = 'owner@acme-request-history.example';
    system.smtp.refuseRecipient(SIGNER, 550, '5.1.1 No such user here');
    ({
      id,
      url: requestPath,
      json,
    } = await ownerWithSentRequest(system, {
      account: 'Acme request history',
      owner,
      password: PASSWORD,
      signer: SIGNER,
    }));
    browser = await launchChromium();
    ({ page, problems } = await signedInTab(browser, system.gatewayUrl, owner, PASSWORD));
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'no console or script errors');
  });

  it('shows the sending of a sent Request, and the e-mail its signer’s server refused', async () => {
    await eventually(async () => ((await events()).length === 2 ? true : undefined), 30_000, 250);
    await page.goto(requestPath);
    await section().getByRole('heading', { name: 'History', level: 2 }).waitFor();
    const [sent, bounced, ...more] = await happenings();
    assert.equal(sent, `Sent to ${SIGNER}`);
    assert.match(bounced ?? '', BOUNCED);
    assert.deepEqual(more, []);
    assert.deepEqual(
      (await events()).map((e) => e.type),
      ['request.sent', 'request.delivery_failed'],
    );
    assert.match(
      (await table().locator('tbody time').first().textContent()) ?? '',
      /^\d{4}-\d\d-\d\d .* UTC$/,
    );
    await expectAccessible(page, 'the Request page with its History');
  });

  it('shows a change of the reminders and the signer’s first view as they happen', async () => {
    await json(`/v1.1/requests/${id}`, 'PATCH', { reminder_interval_days: 3 });
    await page.reload();
    await section().getByText('Expiry or reminders changed').waitFor();
    assert.deepEqual((await happenings()).slice(2), [
      'Expiry or reminders changed: no expiry; automatic reminders every 3 days',
    ]);

    const signers = (await json(`/v1.1/requests/${id}`)).signers as { request_url: string }[];
    const signer = await openTab(browser);
    assert.equal((await signer.page.goto(signers[0]!.request_url))?.status(), 200);
    await signer.context.close();
    await eventually(async () => ((await events()).length === 4 ? true : undefined), 30_000, 250);
    await page.reload();
    await section().getByText(`Viewed by ${SIGNER}`).waitFor();
    const rows = await happenings();
    assert.match(rows[1] ?? '', BOUNCED);
    assert.deepEqual(
      [rows[0], ...rows.slice(2)],
      [
        `Sent to ${SIGNER}`,
        'Expiry or reminders changed: no expiry; automatic reminders every 3 days',
        `Viewed by ${SIGNER}`,
      ],
    );
    assert.deepEqual(
      await section().locator('tbody code').allTextContents(),
      (await events()).map((e) => e.type),
      'one row per entry of the API’s history, in its order',
    );
    await expectAccessible(page, 'the Request page with four events in its History');
    await section().scrollIntoViewIfNeeded();
    await screenshot(page, 'request-history');
  });
});
