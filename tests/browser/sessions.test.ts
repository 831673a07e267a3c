import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { DESKTOP, expectAccessible, launchChromium, openTab, PHONE, screenshot } from './support/web-app.js';

const PASSWORD = 'sessions browser test 42';

/**
 * Where a user is signed in (ADR 3100), in real headless Chromium against the whole built
 * system: the same user signed in in two browser contexts; the first lists both sessions,
 * its own marked and the other named as Chromium (the browser's User-Agent reached auth
 * through the web application), each with when it was last active (ADR 3110); it ends
 * the other, whose next page is the sign-in page; then, signed in there again, signs out
 * everywhere else. axe-core on each state, desktop and phone.
 */
describe('web application in headless Chromium: where you are signed in', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let web: string;
  const owner = 'owner@acme-sessions.example';
  const tabs: { page: Page; problems: string[]; close: () => Promise<void> }[] = [];
  let first: Page;
  let second: Page;

  const signIn = async (page: Page): Promise<void> => {
    await page.goto(`${web}/sign-in`);
    await page.getByLabel('E-mail').fill(owner);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Requests/ }).waitFor();
  };

  /** A browser context of its own (its own cookies), signed in as the owner. */
  const signedIn = async (): Promise<Page> => {
    const tab = await openTab(browser);
    tabs.push({ page: tab.page, problems: tab.problems, close: () => tab.context.close() });
    await signIn(tab.page);
    return tab.page;
  };

  const rows = (page: Page) =>
    page.getByRole('table', { name: 'Where you are signed in' }).locator('tbody tr');
  const cellsOf = async (page: Page): Promise<string[][]> => {
    const out: string[][] = [];
    for (const row of await rows(page).all())
      out.push((await row.getByRole('cell').allTextContents()).map((c) => c.replace(/\s+/g, ' ').trim()));
    return out;
  };

  /** The next page load of a context whose session was ended: the sign-in page. */
  const expectSignedOut = async (page: Page): Promise<void> => {
    await page.goto(`${web}/requests`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/app/sign-in', 'the session ended');
  };

  const onPhoneToo = async (page: Page, where: string): Promise<void> => {
    await page.setViewportSize(PHONE);
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok((await overflow()) <= 0, `the page is ${await overflow()}px wider than the phone`);
    await expectAccessible(page, `${where} on a phone`);
    await page.setViewportSize(DESKTOP);
  };

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_sessions' });
    web = `${system.gatewayUrl}/app`;
    const { account } = (await system.admin('create-account', '--name', 'Acme sessions')) as {
      account: { id: string };
    };
    const { site } = (await system.admin('create-site', '--account', account.id, '--name', 'Production')) as {
      site: { id: number };
    };
    await system.admin('create-user', '--account', account.id, '--email', owner, '--password', PASSWORD);
    await system.admin('add-member', '--site', String(site.id), '--user', owner);
    browser = await launchChromium();
    first = await signedIn();
    second = await signedIn();
  });
  after(async () => {
    for (const tab of tabs) await tab.close();
    await browser?.close();
    await system?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed')
      assert.deepEqual(
        tabs.flatMap((t) => t.problems),
        [],
        'no console or script errors',
      );
  });

  it('lists both sessions: this browser marked, the other named as the browser it is', async () => {
    await first.getByRole('link', { name: 'Sessions', exact: true }).click();
    await first.getByRole('heading', { name: 'Where you are signed in', level: 1 }).waitFor();
    assert.equal(await first.title(), 'Sessions · E-sign');
    const cells = await cellsOf(first);
    assert.equal(cells.length, 2, JSON.stringify(cells));
    const own = cells.filter((c) => c[2]?.includes('This browser'));
    assert.equal(own.length, 1, JSON.stringify(cells));
    const other = cells.find((c) => !c[2]?.includes('This browser'));
    assert.match(other?.[2] ?? '', /^Chrom(e|ium) \d+/, 'the browser’s User-Agent reached auth');
    assert.match(other?.[1] ?? '', /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/, 'from where');
    // When each was last used (ADR 3110): a time, never before the session began.
    await first.getByRole('columnheader', { name: 'Last active' }).waitFor();
    for (const [began, , , lastActive] of cells) {
      assert.match(lastActive ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/, JSON.stringify(cells));
      assert.ok((lastActive ?? '') >= (began ?? ''), JSON.stringify(cells));
    }
    // The whole User-Agent is kept in the label's title.
    const title = await rows(first)
      .filter({ hasNotText: 'This browser' })
      .getByRole('cell')
      .nth(2)
      .locator('span[title]')
      .getAttribute('title');
    assert.match(title ?? '', /^Mozilla\/5\.0 .*Chrom/);
    await first.getByRole('button', { name: 'Sign out of this browser' }).waitFor();
    await first.getByRole('button', { name: 'Sign out everywhere else' }).waitFor();
    await expectAccessible(first, 'sessions, signed in twice');
    await screenshot(first, 'sessions');
    await onPhoneToo(first, 'sessions');
  });

  it('ends the other session: that browser’s next page is the sign-in page', async () => {
    await first.getByRole('button', { name: /^End the session that began / }).click();
    await first.getByRole('status').getByText('The session was ended: that browser is signed out.').waitFor();
    assert.equal(await rows(first).count(), 1);
    await first.getByText('You are signed in in this browser only.').waitFor();
    assert.equal(await first.getByRole('button', { name: 'Sign out everywhere else' }).count(), 0);
    await expectAccessible(first, 'sessions, the other one ended');
    await onPhoneToo(first, 'sessions, the other one ended');
    await expectSignedOut(second);
  });

  it('signs out everywhere else: the notice names one, and the other browser is signed out', async () => {
    await signIn(second);
    await first.reload();
    assert.equal(await rows(first).count(), 2);
    await first.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await first
      .getByRole('status')
      .getByText('1 other session was ended: that browser is signed out.')
      .waitFor();
    assert.equal(await rows(first).count(), 1);
    await expectAccessible(first, 'sessions after signing out everywhere else');
    await onPhoneToo(first, 'sessions after signing out everywhere else');
    await expectSignedOut(second);
    // This browser is still signed in.
    await first.goto(`${web}/requests`);
    await first.getByRole('heading', { name: /^Requests/ }).waitFor();
  });
});
