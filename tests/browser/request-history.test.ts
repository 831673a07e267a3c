import assert from 'node:assert/strict';
import { eventually } from '@esign/testing';
import { sentRequestPage } from './support/sent-request-page.js';
import { sentRequestOf } from './support/sent-request.js';
import { expectAccessible, openTab, screenshot } from './support/web-app.js';

const PASSWORD = 'request history browser test password 42';
const SIGNER = 'ann@client.example';
/** The row of the signer's refused e-mail, with the reason their server gave. */
const BOUNCED = /^E-mail to ann@client\.example could not be delivered — .*550 5\.1\.1 No such user here/;

/**
 * **History** on a sent Request's page in real headless Chromium, against the whole built
 * system (ADR 3170): the sending and the signer's e-mail refused by their mail server (ADR
 * 3180), then a change of the automatic reminders through the API and the signer's first
 * view of their link, each as a row in plain English, as many rows as
 * `GET /v1.1/requests/:id/events` has entries; axe-core on each state. Then another sent
 * Request cancelled on its page with a reason, its signer told: the reason in its History.
 * Last, a third one's signer replaced on its page (ADR 3550): the notice, the new signer
 * in the list and sent their link, and the replacement in its History.
 */
describe('web application in headless Chromium: a Request’s history', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  const suite = sentRequestPage({
    label: 'web_request_history',
    account: 'Acme request history',
    owner: 'owner@acme-request-history.example',
    password: PASSWORD,
    signer: SIGNER,
    prepare: (system) => system.smtp.refuseRecipient(SIGNER, 550, '5.1.1 No such user here'),
  });

  const section = () => suite.page.getByRole('region', { name: 'History' });
  const table = () => section().getByRole('table', { name: 'What happened to this Request, oldest first' });
  /** The "What happened" cell of each row, in order. */
  const happenings = async () =>
    (await table().locator('tbody tr td:nth-child(2)').allTextContents()).map((text) =>
      text.replace(/\s+/g, ' ').trim(),
    );
  const events = async () =>
    (await suite.json(`/v1.1/requests/${suite.id}/events`)).data as { type: string }[];

  it('shows the sending of a sent Request, and the e-mail its signer’s server refused', async () => {
    await eventually(async () => ((await events()).length === 2 ? true : undefined), 30_000, 250);
    await suite.page.goto(suite.url);
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
    await expectAccessible(suite.page, 'the Request page with its History');
  });

  it('shows a change of the reminders and the signer’s first view as they happen', async () => {
    await suite.json(`/v1.1/requests/${suite.id}`, 'PATCH', { reminder_interval_days: 3 });
    await suite.page.reload();
    await section().getByText('Expiry or reminders changed').waitFor();
    assert.deepEqual((await happenings()).slice(2), [
      'Expiry or reminders changed: no expiry; automatic reminders every 3 days',
    ]);

    const signers = (await suite.json(`/v1.1/requests/${suite.id}`)).signers as { request_url: string }[];
    const signer = await openTab(suite.browser);
    assert.equal((await signer.page.goto(signers[0]!.request_url))?.status(), 200);
    await signer.context.close();
    await eventually(async () => ((await events()).length === 4 ? true : undefined), 30_000, 250);
    await suite.page.reload();
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
    await expectAccessible(suite.page, 'the Request page with four events in its History');
    await section().scrollIntoViewIfNeeded();
    await screenshot(suite.page, 'request-history');
  });

  it('shows the same events on the Site’s Activity page, newest first, filtered by type, and its templates’', async () => {
    const page = suite.page;
    await page.goto(new URL('/app/requests', suite.url).href);
    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /^Activity/ }).waitFor();
    const activity = page.getByRole('table', { name: 'The latest events, newest first' });
    const rows = async () =>
      (await activity.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) =>
        t.replace(/\s+/g, ' ').trim(),
      );
    const newest = await rows();
    assert.equal(newest.length, 4);
    assert.deepEqual(
      [newest[0], newest[1], newest[3]],
      [
        `Viewed by ${SIGNER}`,
        'Expiry or reminders changed: no expiry; automatic reminders every 3 days',
        `Sent to ${SIGNER}`,
      ],
    );
    assert.match(newest[2] ?? '', BOUNCED);
    assert.equal(await page.getByRole('link', { name: 'Older' }).count(), 0, 'all of it on one page');
    await expectAccessible(page, 'the Site’s Activity');
    await screenshot(page, 'activity');

    await page.getByLabel('Show').selectOption({ label: 'Viewed' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('table', { name: 'The latest “Viewed” events, newest first' }).waitFor();
    assert.deepEqual(
      (await page.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) => t.trim()),
      [`Viewed by ${SIGNER}`],
    );
    await expectAccessible(page, 'the Site’s Activity, one type');
    await page.getByRole('link', { name: new RegExp(`Request ${suite.id}`) }).click();
    await page.waitForURL(suite.url);

    // A template event type shows the Site's templates instead (ADR 3700).
    await page.goto(new URL('/app/activity', suite.url).href);
    await page.getByLabel('Show').selectOption({ label: 'Template published' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('table', { name: 'The latest “Template published” events, newest first' }).waitFor();
    const published = (await page.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) => t.trim());
    assert.ok(published.length > 0, 'the suite published a template');
    for (const row of published) assert.match(row, /^Template published: “.+”$/);
    await expectAccessible(page, 'the Site’s Activity, its templates');
    await screenshot(page, 'activity-templates');
  });

  it('cancels another sent Request with a reason, telling its signer: the notice, the History and the e-mail', async () => {
    // A signer whose mail is accepted, on a Request of the same contract, sent through the API.
    const bob = 'bob@client.example';
    const reason = 'The fee was wrong. A corrected Request follows.';
    const source = await suite.json(`/v1.1/requests/${suite.id}`);
    const id = await sentRequestOf(
      suite.json,
      Number(source.site_id),
      (source.contracts as unknown[])[0],
      bob,
      {
        render_data: { client_name: 'Bob Ray' },
      },
    );
    const page = suite.page;
    await page.goto(suite.url.replace(suite.id, id));
    await page.locator('h1 .state-sent').waitFor();
    const disclosure = page.locator('details.cancel');
    assert.equal(await disclosure.getAttribute('open'), null, 'closed at first');
    await disclosure.getByText('Cancel Request…').click();
    await page.getByLabel('Reason (optional)').fill(reason);
    await page
      .getByRole('checkbox', {
        name: 'Tell the signers it was cancelled (by e-mail or SMS, as they were invited)',
      })
      .check();
    await expectAccessible(page, 'the Request page with Cancel Request… open');
    await disclosure.scrollIntoViewIfNeeded();
    await screenshot(page, 'request-cancel');

    await page.getByRole('button', { name: 'Cancel Request', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'The Request was cancelled, and its signers are being told.' })
      .waitFor();
    await page.locator('h1 .state-cancelled').waitFor();
    assert.equal(new URL(page.url()).searchParams.get('done'), 'cancel-told');
    assert.equal(await page.locator('details.cancel').count(), 0, 'nothing left to cancel');
    // The entry as the API keeps it, then as the page shows it (read again once it is there).
    const cancelled = await eventually(
      async () => {
        const entries = (await suite.json(`/v1.1/requests/${id}/events`)).data as {
          type: string;
          data: unknown;
        }[];
        const found = entries.filter((e) => e.type === 'request.cancelled').map((e) => e.data);
        return found.length === 0 ? undefined : found;
      },
      30_000,
      250,
    );
    assert.deepEqual(cancelled, [{ request_id: id, previous_state: 'sent', reason, signers_notified: true }]);
    await page.reload();
    await section().getByText(`Cancelled: ${reason}`).waitFor();
    assert.deepEqual(await happenings(), [`Sent to ${bob}`, `Cancelled: ${reason}; the signers were told`]);
    await expectAccessible(page, 'the cancelled Request’s page with the reason in its History');

    // The signer is told by e-mail, as they were invited, the reason quoted.
    const told = await eventually(
      () =>
        Promise.resolve(
          suite.system.smtp.received.find(
            (m) => m.to.includes(bob) && String(m.mail.text ?? '').includes(reason),
          ),
        ),
      60_000,
      250,
    );
    assert.ok(told);
  });

  it('replaces a signer who has not signed: the notice, the new signer listed and told, the History', async () => {
    const [cy, dee] = ['cy@client.example', 'dee@client.example'];
    const source = await suite.json(`/v1.1/requests/${suite.id}`);
    const contract = (source.contracts as unknown[])[0];
    const id = await sentRequestOf(suite.json, Number(source.site_id), contract, cy, {
      render_data: { client_name: 'Cy Ray' },
    });
    const page = suite.page;
    await page.goto(suite.url.replace(suite.id, id));
    const disclosure = page.getByRole('row', { name: /^cy@client\.example/ }).locator('details.replace');
    assert.equal(await disclosure.getAttribute('open'), null, 'closed at first');
    await disclosure.locator('summary').click();
    await disclosure.getByLabel('New signer ID').fill(dee);
    const email = disclosure.getByLabel('E-mail address', { exact: true });
    await email.fill(dee);
    const note = 'Cy is away this month: please sign for the firm.';
    const noteField = disclosure.getByLabel('Message to the new signer (optional)');
    await noteField.fill(note);
    // Left focused, the field is scrolled back into view as the full-page screenshot ends.
    await noteField.blur();
    assert.ok(await disclosure.getByRole('checkbox', { name: 'Send by e-mail' }).isChecked(), 'as cy had');
    assert.ok(
      await disclosure
        .getByRole('checkbox', { name: 'Send them the link now, and tell the replaced signer' })
        .isChecked(),
    );
    await expectAccessible(page, 'the Request page with Replace signer… open and filled');
    await disclosure.scrollIntoViewIfNeeded();
    await screenshot(page, 'request-replace-signer');

    const mailsBefore = suite.system.smtp.received.length;
    await disclosure.getByRole('button', { name: `Replace signer ${cy}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Replaced ${cy} with ${dee}.` })
      .waitFor();
    await page.getByRole('rowheader', { name: dee, exact: true }).waitFor();
    assert.equal(await page.getByRole('rowheader', { name: cy, exact: true }).count(), 0, 'cy is gone');
    assert.equal(await page.locator('details.replace').count(), 1, 'dee can be replaced in turn');
    await expectAccessible(page, 'the Request page after a replacement');
    await eventually(
      () =>
        Promise.resolve(
          suite.system.smtp.received
            .slice(mailsBefore)
            .find((m) => m.to.includes(dee) && String(m.mail.text ?? '').includes(note)),
        ),
      60_000,
      250,
    );
    await eventually(
      async () => {
        const entries = (await suite.json(`/v1.1/requests/${id}/events`)).data as { type: string }[];
        return entries.some((e) => e.type === 'request.signer_updated') ? true : undefined;
      },
      30_000,
      250,
    );
    await page.reload();
    await section()
      .getByText(`Signer replaced: ${cy} → ${dee} by owner@acme-request-history.example; ${cy} was told`)
      .waitFor();
    const rows = await happenings();
    assert.deepEqual(
      rows.slice(0, 2),
      [
        `Sent to ${cy}`,
        `Signer replaced: ${cy} → ${dee} by owner@acme-request-history.example; ${cy} was told`,
      ],
      rows.join(' | '),
    );
    await expectAccessible(page, 'the Request page with the replacement in its History');
  });
});
