import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import {
  expectAccessible,
  invitationLinkMailedTo,
  launchChromium,
  openTab,
  PHONE,
  screenshot,
} from './support/web-app.js';

const PASSWORD = 'account users browser test 42';
const CHOSEN = 'the invitee chose this phrase';
const ACCOUNT = 'Acme users';

/**
 * An account admin invites people by e-mail (ADR 3030) in real headless Chromium, against
 * the whole built system: the Users page (from the header), a refusal beside its field,
 * an invitation onto a chosen Site listed with Revoke, a revoked one whose link is dead;
 * the e-mailed link opens the accept page, the invitee chooses a password, lands on
 * sign-in with a notice and signs in to the Site they were invited to; the admin disables
 * and enables them, and creates a Site. axe-core on each.
 */
describe('web application in headless Chromium: inviting people to the account', function () {
  // Generous: the machine may be busy, and nothing here measures speed.
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let web: string;
  const owner = 'owner@acme-users.example';
  const invitee = 'new.colleague@acme-users.example';
  const revokedInvitee = 'changed.mind@acme-users.example';
  const links: Record<string, string> = {};

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

  const linkMailedTo = (to: string, after = 0) => invitationLinkMailedTo(system, to, after);

  const invite = async (email: string, sites: { tick?: RegExp[]; untick?: RegExp[] }) => {
    await page.getByLabel('E-mail address').fill(email);
    for (const name of sites.untick ?? []) await page.getByRole('checkbox', { name }).uncheck();
    for (const name of sites.tick ?? []) await page.getByRole('checkbox', { name }).check();
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
  };

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'web_users' });
    web = `${system.gatewayUrl}/app`;
    const { account } = (await system.admin('create-account', '--name', ACCOUNT)) as {
      account: { id: string };
    };
    // One after the other: the first Site (the lowest id) is the one the pages show first.
    for (const name of ['Production', 'Development']) {
      const { site } = (await system.admin('create-site', '--account', account.id, '--name', name)) as {
        site: { id: number };
      };
      if (name === 'Production')
        await system.admin('create-user', '--account', account.id, '--email', owner, '--password', PASSWORD);
      await system.admin('add-member', '--site', String(site.id), '--user', owner);
    }
    browser = await launchChromium();
    ({ page, problems } = await openTab(browser));
    await page.goto(`${web}/sign-in`);
    await page.getByLabel('E-mail').fill(owner);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
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

  it('is reached from the header and lists the account’s users; the current Site is ticked', async () => {
    await nav('Users').click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    assert.match(
      (await page.getByRole('table', { name: 'Users of the account' }).textContent()) ?? '',
      /owner@acme-users\.example\s*Production, Development/,
    );
    await page.getByText('No open invitations.').waitFor();
    assert.equal(await page.getByRole('checkbox', { name: /Production/ }).isChecked(), true);
    assert.equal(await page.getByRole('checkbox', { name: /Development/ }).isChecked(), false);
    assert.equal(await page.getByRole('checkbox', { name: 'Make them an admin' }).isChecked(), false);
    await expectAccessible(page, 'users, no invitation yet');
  });

  it('refuses to invite a user the account has already, beside the field', async () => {
    await invite(owner, {});
    await page.getByRole('alert').waitFor();
    assert.equal(await page.getByLabel('E-mail address').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('E-mail address').inputValue(), owner);
    await expectAccessible(page, 'users, a refused invitation');
  });

  it('revokes an invitation: it leaves the list and its link is dead', async () => {
    const before = system.smtp.received.length;
    await invite(revokedInvitee, {});
    await page.getByRole('status').getByText(`Invitation sent to ${revokedInvitee}`).waitFor();
    links.revoked = await linkMailedTo(revokedInvitee, before);
    await page.getByRole('button', { name: `Revoke the invitation of ${revokedInvitee}` }).click();
    await page.getByText('The invitation was revoked: its link no longer works.').waitFor();
    assert.equal(
      await page.getByRole('button', { name: `Revoke the invitation of ${revokedInvitee}` }).count(),
      0,
    );
  });

  it('invites an address onto the Site ticked: sent, then listed with Revoke', async () => {
    const before = system.smtp.received.length;
    await invite(invitee, { untick: [/^Production/], tick: [/^Development/] });
    await page
      .getByRole('status')
      .getByText(`Invitation sent to ${invitee}; the link works for 7 days.`)
      .waitFor();
    const row = page.getByRole('row').filter({ hasText: invitee });
    assert.match((await row.textContent()) ?? '', /Development\s*Member\s*owner@acme-users\.example/);
    await row.getByRole('button', { name: `Revoke the invitation of ${invitee}` }).waitFor();
    await expectAccessible(page, 'users with an open invitation');
    await screenshot(page, 'users');
    const first = await linkMailedTo(invitee, before);
    // Resend: the same address and Sites, a new link; the first one stops working.
    const again = system.smtp.received.length;
    await row.getByRole('button', { name: `Send the invitation of ${invitee} again` }).click();
    await page.getByRole('status').getByText(`Invitation sent to ${invitee}`).waitFor();
    assert.match((await row.textContent()) ?? '', /Development\s*Member\s*owner@acme-users\.example/);
    links.invitee = await linkMailedTo(invitee, again);
    assert.notEqual(links.invitee, first, 'a new link');
    links.replaced = first;
  });

  it('the e-mailed link: the password twice, then sign-in says who joined what, and they sign in', async () => {
    const visitor = await openTab(browser);
    const v = visitor.page;
    await v.goto(links.invitee!);
    await v.getByRole('heading', { name: 'Accept the invitation' }).waitFor();
    await expectAccessible(v, 'accept an invitation');
    await screenshot(v, 'accept-invitation');

    await v.getByLabel('Password', { exact: true }).fill(CHOSEN);
    await v.getByLabel('Confirm password').fill(`${CHOSEN}!`);
    await v.getByRole('button', { name: 'Join the account' }).click();
    await v.getByRole('alert').getByText('typed differently the second time').waitFor();
    assert.equal(await v.getByLabel('Confirm password').getAttribute('aria-invalid'), 'true');
    await expectAccessible(v, 'accept an invitation, the entries differ');

    await v.getByLabel('Password', { exact: true }).fill(CHOSEN);
    await v.getByLabel('Confirm password').fill(CHOSEN);
    await v.getByRole('button', { name: 'Join the account' }).click();
    await v.getByRole('heading', { name: 'Sign in' }).waitFor();
    await v.getByRole('status').getByText(`You joined ${ACCOUNT}. Sign in as ${invitee}.`).waitFor();
    assert.equal(await v.getByLabel('E-mail').inputValue(), invitee);
    await expectAccessible(v, 'sign-in after joining');
    await v.getByLabel('Password', { exact: true }).fill(CHOSEN);
    await v.getByRole('button', { name: 'Sign in' }).click();
    await v.getByRole('heading', { name: /on Development/ }).waitFor();
    assert.equal(
      await v.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count(),
      0,
      'the new user is no admin',
    );

    // The link works once.
    await v.goto(links.invitee!);
    await v.getByLabel('Password', { exact: true }).fill(CHOSEN);
    await v.getByLabel('Confirm password').fill(CHOSEN);
    await v.getByRole('button', { name: 'Join the account' }).click();
    await v.getByText('Ask the person who invited you to send you a new invitation').waitFor();
    await expectAccessible(v, 'a used invitation link');
    await visitor.context.close();
    assert.deepEqual(visitor.problems, []);
  });

  it('the admin sees the new user on their Site, and no open invitation', async () => {
    await page.goto(`${web}/users`);
    const users = page.getByRole('table', { name: 'Users of the account' });
    assert.match(
      (await users.textContent()) ?? '',
      /new\.colleague@acme-users\.example\s*Development\s*active/,
    );
    await page.getByText('No open invitations.').waitFor();
  });

  it('disables the new user, whose sign-in is then refused, and enables them again (ADR 3040)', async () => {
    await page.goto(`${web}/users`);
    await page.getByRole('button', { name: `Disable ${invitee}` }).click();
    await page.getByText('The user was disabled: their sessions ended').waitFor();
    const users = page.getByRole('table', { name: 'Users of the account' });
    assert.match(
      (await users.textContent()) ?? '',
      /new\.colleague@acme-users\.example\s*Development\s*disabled/,
    );
    assert.equal(await page.getByRole('button', { name: `Disable ${owner}` }).count(), 0, 'not oneself');
    await expectAccessible(page, 'a disabled user');

    const visitor = await openTab(browser);
    const v = visitor.page;
    await v.goto(`${web}/sign-in`);
    await v.getByLabel('E-mail').fill(invitee);
    await v.getByLabel('Password', { exact: true }).fill(CHOSEN);
    await v.getByRole('button', { name: 'Sign in' }).click();
    await v.getByText('The user is disabled.').first().waitFor();
    await visitor.context.close();

    await page.getByRole('button', { name: `Enable ${invitee}` }).click();
    await page.getByText('The user was enabled').waitFor();
    assert.match(
      (await users.textContent()) ?? '',
      /new\.colleague@acme-users\.example\s*Development\s*active/,
    );
  });

  it('a revoked link, a replaced one and a link without its token say so, without a form', async () => {
    const visitor = await openTab(browser);
    const v = visitor.page;
    for (const link of [links.revoked!, links.replaced!]) {
      await v.goto(link);
      await v.getByLabel('Password', { exact: true }).fill(CHOSEN);
      await v.getByLabel('Confirm password').fill(CHOSEN);
      await v.getByRole('button', { name: 'Join the account' }).click();
      await v.getByText('Ask the person who invited you to send you a new invitation').waitFor();
      assert.equal(await v.getByLabel('Password', { exact: true }).count(), 0);
    }

    await v.goto(`${web}/accept-invitation`);
    await v.getByText('This link is incomplete').waitFor();
    await expectAccessible(v, 'an incomplete invitation link');
    await visitor.context.close();
    assert.deepEqual(visitor.problems, []);
  });

  it('creates a Site on the Sites page (ADR 3050): the admin is on it and switches to it', async () => {
    await page.goto(`${web}/sites`);
    await page.getByLabel('Name of the new Site').fill('Production');
    await page.getByRole('button', { name: 'Create Site' }).click();
    await page.getByText('is the name of another Site of the account').first().waitFor();
    assert.equal(await page.getByLabel('Name of the new Site').getAttribute('aria-invalid'), 'true');
    await expectAccessible(page, 'sites, a refused new Site');
    await page.getByLabel('Name of the new Site').fill('Quality assurance');
    await page.getByRole('button', { name: 'Create Site' }).click();
    await page.getByText('The Site was created, with you as its member').waitFor();
    await page.getByRole('button', { name: 'Switch to Quality assurance' }).click();
    await page.goto(`${web}/requests`);
    await page.getByRole('heading', { name: /on Quality assurance/ }).waitFor();
  });

  it('fits a phone: the Users page with an open invitation, and the accept page', async () => {
    const phoneInvitee = 'on.the.go@acme-users.example';
    const before = system.smtp.received.length;
    await page.setViewportSize(PHONE);
    await page.goto(`${web}/users`);
    await invite(phoneInvitee, {});
    await page.getByRole('status').getByText(`Invitation sent to ${phoneInvitee}`).waitFor();
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok((await overflow()) <= 0, `the page is ${await overflow()}px wider than the phone`);
    await expectAccessible(page, 'users on a phone');

    const visitor = await openTab(browser, PHONE);
    await visitor.page.goto(await linkMailedTo(phoneInvitee, before));
    await visitor.page.getByRole('heading', { name: 'Accept the invitation' }).waitFor();
    const wider = await visitor.page.evaluate<number>(
      'document.documentElement.scrollWidth - window.innerWidth',
    );
    assert.ok(wider <= 0, `the accept page is ${wider}px wider than the phone`);
    await expectAccessible(visitor.page, 'accept an invitation on a phone');
    await visitor.context.close();
    assert.deepEqual(visitor.problems, []);
  });
});
