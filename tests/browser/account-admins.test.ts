import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectAccessible, invitationLinkMailedTo, launchChromium, openTab } from './support/web-app.js';

const PASSWORD = 'account admins browser test 42';

/**
 * More than one admin per account (ADR 3060) in real headless Chromium, against the whole
 * built system: the Users page shows each user's role; the owner makes a colleague admin,
 * who (in a browser of their own) then has the Users page; the owner steps down and gets
 * the members' page; the colleague, now the only admin, is refused stepping down in
 * auth's words, and invites a newcomer as an admin (ADR 3090), who joins as one. axe-core
 * on each.
 */
describe('web application in headless Chromium: the account’s admins', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let web: string;
  const owner = 'owner@acme-admins.example';
  const colleague = 'colleague@acme-admins.example';
  const newcomer = 'newcomer@acme-admins.example';
  const tabs: { page: Page; problems: string[]; close: () => Promise<void> }[] = [];
  let ownerPage: Page;
  let colleaguePage: Page;

  /** A browser context of its own (its own cookies), signed in as `email`. */
  const signedIn = async (email: string): Promise<Page> => {
    const tab = await openTab(browser);
    tabs.push({ page: tab.page, problems: tab.problems, close: () => tab.context.close() });
    await tab.page.goto(`${web}/sign-in`);
    await tab.page.getByLabel('E-mail').fill(email);
    await tab.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByRole('heading', { name: /^Requests/ }).waitFor();
    return tab.page;
  };

  const usersLink = (page: Page) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' });
  const rowOf = (page: Page, email: string) =>
    page.getByRole('table', { name: 'Users of the account' }).getByRole('row').filter({ hasText: email });
  const cellsOf = async (page: Page, email: string): Promise<string[]> =>
    (await rowOf(page, email).getByRole('cell').allTextContents()).map((c) => c.replace(/\s+/g, ' ').trim());

  const linkMailedTo = (to: string, after = 0) => invitationLinkMailedTo(system, to, after);

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_admins' });
    web = `${system.gatewayUrl}/app`;
    const { account } = (await system.admin('create-account', '--name', 'Acme admins')) as {
      account: { id: string };
    };
    const { site } = (await system.admin('create-site', '--account', account.id, '--name', 'Production')) as {
      site: { id: number };
    };
    // The account's first user administers it (ADR 1401); the second is a member.
    for (const email of [owner, colleague]) {
      await system.admin('create-user', '--account', account.id, '--email', email, '--password', PASSWORD);
      await system.admin('add-member', '--site', String(site.id), '--user', email);
    }
    browser = await launchChromium();
    ownerPage = await signedIn(owner);
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

  it('shows each user’s role; the owner makes the colleague an admin', async () => {
    const page = ownerPage;
    await usersLink(page).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    assert.deepEqual((await cellsOf(page, owner)).slice(2, 4), ['active', 'Admin']);
    assert.deepEqual((await cellsOf(page, colleague)).slice(2, 4), ['active', 'Member']);
    assert.equal(
      await rowOf(page, owner)
        .getByRole('button', { name: /Disable|Make admin/ })
        .count(),
      0,
    );
    await rowOf(page, owner).getByText('you, the only admin').waitFor();
    await expectAccessible(page, 'users with their roles');

    await page.getByRole('button', { name: `Make admin ${colleague}` }).click();
    await page.getByRole('status').getByText('The user is now an admin').waitFor();
    assert.deepEqual((await cellsOf(page, colleague)).slice(2, 4), ['active', 'Admin']);
    await page.getByRole('button', { name: `Remove admin ${colleague}` }).waitFor();
    assert.equal(await page.getByRole('button', { name: `Make admin ${colleague}` }).count(), 0);
    await rowOf(page, owner).getByRole('button', { name: 'Step down as admin' }).waitFor();
    await expectAccessible(page, 'users, a colleague made admin');
  });

  it('the colleague, in a browser of their own, now has the Users link and page', async () => {
    colleaguePage = await signedIn(colleague);
    const page = colleaguePage;
    await usersLink(page).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    assert.deepEqual((await cellsOf(page, owner)).slice(2, 4), ['active', 'Admin']);
    await page.getByRole('button', { name: `Remove admin ${owner}` }).waitFor();
    await rowOf(page, colleague).getByRole('button', { name: 'Step down as admin' }).waitFor();
    await expectAccessible(page, 'users, seen by the second admin');
  });

  it('the owner steps down while the colleague is admin: the members’ page says so', async () => {
    const page = ownerPage;
    await page.goto(`${web}/users`);
    await rowOf(page, owner).getByRole('button', { name: 'Step down as admin' }).click();
    await page.getByRole('status').getByText('You are no longer an admin of the account.').waitFor();
    await page.getByText('Only an administrator of your account sees its users').waitFor();
    assert.equal(await usersLink(page).count(), 0, 'no Users link in the header any more');
    await page.getByRole('link', { name: colleague, exact: true }).waitFor(); // whom to ask now
    assert.equal(await page.getByRole('table').count(), 0, 'no lists');
    await expectAccessible(page, 'users, after stepping down');

    await colleaguePage.goto(`${web}/users`);
    assert.deepEqual((await cellsOf(colleaguePage, owner)).slice(2, 4), ['active', 'Member']);
    await colleaguePage.getByRole('button', { name: `Make admin ${owner}` }).waitFor();
  });

  it('the only admin is offered no step down, and stays admin', async () => {
    const page = colleaguePage;
    const own = rowOf(page, colleague);
    await own.getByText('you, the only admin').waitFor();
    assert.equal(await own.getByRole('button', { name: 'Step down as admin' }).count(), 0);
    assert.deepEqual((await cellsOf(page, colleague)).slice(2, 4), ['active', 'Admin']);
    assert.equal(await usersLink(page).count(), 1);
    await expectAccessible(page, 'users, seen by the only admin');
  });

  it('invites a newcomer as an admin (ADR 3090): listed so, kept by Resend; they join as an admin', async () => {
    const page = colleaguePage;
    const adminBox = page.getByRole('checkbox', { name: 'Make them an admin' });
    assert.equal(await adminBox.isChecked(), false, 'a member by default');
    // Refused (already a user): the form comes back as sent, the box still ticked.
    await page.getByLabel('E-mail address').fill(owner);
    await adminBox.check();
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('alert').waitFor();
    assert.equal(await adminBox.isChecked(), true);
    await expectAccessible(page, 'users, a refused admin invitation');

    const before = system.smtp.received.length;
    await page.getByLabel('E-mail address').fill(newcomer);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const sent = `Invitation sent to ${newcomer} as an admin; the link works for 7 days.`;
    await page.getByRole('status').getByText(sent).waitFor();
    const invitations = page.getByRole('table', { name: 'Open invitations' });
    const cells = async () =>
      (await invitations.getByRole('row').filter({ hasText: newcomer }).getByRole('cell').allTextContents())
        .map((c) => c.replace(/\s+/g, ' ').trim())
        .slice(0, 4);
    assert.deepEqual(await cells(), [newcomer, 'Production', 'Admin', colleague]);
    assert.equal(await adminBox.isChecked(), false, 'the next invitation starts a member’s again');
    await expectAccessible(page, 'users with an open admin invitation');
    const first = await linkMailedTo(newcomer, before);

    const again = system.smtp.received.length;
    await page.getByRole('button', { name: `Send the invitation of ${newcomer} again` }).click();
    await page.getByRole('status').getByText(sent).waitFor();
    assert.deepEqual(await cells(), [newcomer, 'Production', 'Admin', colleague], 'Resend keeps the role');
    const link = await linkMailedTo(newcomer, again);
    assert.notEqual(link, first, 'a new link');

    const tab = await openTab(browser);
    tabs.push({ page: tab.page, problems: tab.problems, close: () => tab.context.close() });
    const v = tab.page;
    await v.goto(link);
    await v.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await v.getByLabel('Confirm password').fill(PASSWORD);
    await v.getByRole('button', { name: 'Join the account' }).click();
    await v
      .getByRole('status')
      .getByText(`You joined Acme admins as an admin. Sign in as ${newcomer}.`)
      .waitFor();
    await expectAccessible(v, 'sign-in after joining as an admin');
    await v.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await v.getByRole('button', { name: 'Sign in' }).click();
    await v.getByRole('heading', { name: /^Requests/ }).waitFor();
    await usersLink(v).click();
    await v.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    assert.deepEqual((await cellsOf(v, newcomer)).slice(2, 4), ['active', 'Admin']);
    await v.getByText('No open invitations.').waitFor();
  });
});
