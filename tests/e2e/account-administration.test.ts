// Account administration through the gateway with the typed client (ADRs 3030, 3040,
// 3050, 3060, 3090, 3120): the account's admin creates a Site, invites a colleague by e-mail
// (auth's outbox, RabbitMQ, the notifier, SMTP), the colleague accepts and signs in, and the
// admin disables them when they leave; admins invite admins; an operator's change is told to
// the account (ADR 3120); an operator's new user chooses their own password (ADR 3160).
// Every answer is checked against the OpenAPI document.
import assert from 'node:assert/strict';
import type { EsignClient } from '@esign/client';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { typedClient, clientOf, mailsTo, ok, unique, waitForMail, type ClientOf } from './support/flow.js';

const PASSWORD = 'a long passphrase for the e2e suite';

/** A literal address inside a pattern. */
const escaped = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('end to end through the gateway: an account admin’s Sites, invitations and users', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let admin: EsignClient;
  const typed = (accessToken?: string): EsignClient => typedClient(system, accessToken);
  /** The first e-mail to `to` whose subject matches, once the notifier has sent it. */
  const mailed = (to: string, subject: RegExp) =>
    eventually(
      () => Promise.resolve(mailsTo(system, to).find((m) => subject.test(m.mail.subject ?? ''))),
      30_000,
    );

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_account_admin' });
    acme = clientOf(system, await system.createTenant('Acme'));
    // The tenant's user is the account's first, so its admin; give them a known password.
    await system.admin('set-password', '--user', acme.tenant.user.email, '--password', PASSWORD);
    const body = { email: acme.tenant.user.email, password: PASSWORD };
    admin = typed(ok(await typed().POST('/v1.1/sessions', { body }), 201, 'admin signs in').session_token);
  });
  after(async () => {
    await system?.stop();
  });

  it('a new Site: the admin is on it, and the access token they made before reaches it', async () => {
    // (The operator's set-password above revoked the tenant's token: ADR 1311.)
    const before = ok(await admin.POST('/v1.1/sessions/current/access-token'), 201, 'an access token');
    const name = `Development ${unique()}`;
    const site = ok(await admin.POST('/v1.1/account/sites', { body: { name } }), 201, 'new Site');
    assert.deepEqual([site.name, site.members.map((m) => m.email)], [name, [acme.tenant.user.email]]);
    const token = typed(before.access_token);
    const list = ok(
      await token.GET('/v1.1/sites/{site_id}/requests', { params: { path: { site_id: site.id } } }),
      200,
      'list its Requests',
    );
    assert.equal(list.total_count, 0);
    const taken = await admin.POST('/v1.1/account/sites', { body: { name } });
    assert.equal(taken.error?.code, 'site_name_taken');
  });

  it('an invitation: the admin invites by e-mail, the invitee chooses a password and is on the Site chosen', async () => {
    const adminEmail = acme.tenant.user.email;
    const email = `invited-${unique()}@example.test`;
    const made = ok(
      await admin.POST('/v1.1/account/invitations', { body: { email, site_ids: [acme.site] } }),
      201,
      'invite',
    );
    assert.deepEqual([made.email, made.site_ids, made.invited_by], [email, [acme.site], adminEmail]);
    const open = ok(await admin.GET('/v1.1/account/invitations'), 200, 'open invitations').data;
    assert.deepEqual(
      open.map((i) => i.id),
      [made.id],
    );
    const mail = await waitForMail(system, email, 30_000);
    assert.match(mail.mail.subject ?? '', /^Join Acme \S+ on E-sign$/);
    const link = /https?:\/\/\S+\/app\/accept-invitation\?token=inv_[A-Za-z0-9_-]+/.exec(
      mail.mail.text ?? '',
    );
    assert.ok(link, mail.mail.text);
    const url = new URL(link[0]);
    assert.equal(url.origin, system.gatewayUrl, 'the link opens the web application behind the gateway');
    const token = url.searchParams.get('token')!;

    const CHOSEN = 'chosen by the invitee themselves';
    const joined = ok(
      await typed().POST('/v1.1/invitations/accept', { body: { token, password: CHOSEN } }),
      201,
      'accept',
    );
    assert.deepEqual(
      [joined.user.email, joined.account.id, joined.site_ids],
      [email, acme.tenant.accountId, [acme.site]],
    );
    const session = typed(
      ok(await typed().POST('/v1.1/sessions', { body: { email, password: CHOSEN } }), 201, 'sign in')
        .session_token,
    );
    // The admin who invited them is told (account.invitation_accepted, the same chain).
    const told = await eventually(
      () =>
        Promise.resolve(
          mailsTo(system, adminEmail).find((m) => m.mail.subject?.startsWith(`${email} joined`)),
        ),
      30_000,
    );
    assert.match(told.mail.text ?? '', /accepted your invitation and joined Acme /);
    const current = ok(await session.GET('/v1.1/sessions/current'), 200, 'who');
    assert.deepEqual([current.account_admin, current.sites.map((s) => s.id)], [false, [acme.site]]);
    const again = await typed().POST('/v1.1/invitations/accept', { body: { token, password: CHOSEN } });
    assert.equal(again.error?.code, 'invalid_invitation_token');
    assert.deepEqual(ok(await admin.GET('/v1.1/account/invitations'), 200, 'open invitations').data, []);
    // A second admin (ADR 3060): from their next call they manage the account; then they step down.
    const path = { path: { user_id: joined.user.id } };
    const promoted = ok(
      await admin.PATCH('/v1.1/account/users/{user_id}', { params: path, body: { admin: true } }),
      200,
      'promote',
    );
    assert.equal(promoted.admin, true);
    assert.equal(ok(await session.GET('/v1.1/sessions/current'), 200, 'who now').account_admin, true);
    const users = ok(await session.GET('/v1.1/account/users'), 200, 'users').data;
    assert.deepEqual(
      users
        .filter((u) => u.admin)
        .map((u) => u.email)
        .sort(),
      [adminEmail, email].sort(),
    );
    const down = ok(
      await session.PATCH('/v1.1/account/users/{user_id}', { params: path, body: { admin: false } }),
      200,
      'step down',
    );
    assert.equal(down.admin, false);
    // Every admin hears of each change to the role (account.access_changed, auth's outbox → the notifier).
    await mailed(email, /^You are now an admin of Acme \S+$/);
    const heard = await mailed(
      adminEmail,
      new RegExp(`^${escaped(email)} is no longer an admin of Acme \\S+$`),
    );
    assert.match(heard.mail.text ?? '', new RegExp(`^${escaped(email)} stepped down as an admin of Acme `));
    // A colleague who left (ADR 3040): disabled by the admin, their session ends at once, and they are told.
    const user = { params: path, body: { disabled: true } };
    assert.ok(ok(await admin.PATCH('/v1.1/account/users/{user_id}', user), 200, 'disable').disabled_at);
    await mailed(email, /^Your access to Acme \S+ was turned off$/);
    // The account's name (ADR 3080): any user sees it; the admin renames it.
    const account = ok(await admin.GET('/v1.1/account'), 200, 'the account');
    assert.deepEqual([account.id, account.api_access], [acme.tenant.accountId, true]);
    const renamed = ok(
      await admin.PATCH('/v1.1/account', { body: { name: `${account.name} Holdings` } }),
      200,
      'rename',
    );
    assert.equal(renamed.name, `${account.name} Holdings`);
    assert.equal((await session.GET('/v1.1/sessions/current')).response.status, 401);
  });

  it('an invitation that makes an admin: the invitee joins as one, and the other admins are told', async () => {
    const adminEmail = acme.tenant.user.email;
    const join = async (inviter: EsignClient, email: string) => {
      const made = ok(
        await inviter.POST('/v1.1/account/invitations', { body: { email, admin: true } }),
        201,
        'invite an admin',
      );
      assert.equal(made.admin, true);
      const mail = await mailed(email, /^Join Acme .+ on E-sign as an admin$/);
      const token = new URL(
        /https?:\/\/\S+\/app\/accept-invitation\?token=\S+/.exec(mail.mail.text ?? '')![0],
      ).searchParams.get('token')!;
      const CHOSEN = 'chosen by the new admin themselves';
      const joined = ok(
        await typed().POST('/v1.1/invitations/accept', { body: { token, password: CHOSEN } }),
        201,
        'accept',
      );
      assert.equal(joined.user.admin, true);
      return typed(
        ok(await typed().POST('/v1.1/sessions', { body: { email, password: CHOSEN } }), 201, 'sign in')
          .session_token,
      );
    };
    const first = `first-admin-${unique()}@example.test`;
    const firstSession = await join(admin, first);
    assert.equal(ok(await firstSession.GET('/v1.1/sessions/current'), 200, 'who').account_admin, true);
    await mailed(adminEmail, new RegExp(`^${escaped(first)} joined Acme .+ as an admin$`));
    // The new admin invites another: the admin who did not invite them hears of it.
    const second = `second-admin-${unique()}@example.test`;
    await join(firstSession, second);
    const heard = await mailed(adminEmail, new RegExp(`^${escaped(second)} joined Acme .+ as an admin$`));
    assert.match(
      heard.mail.text ?? '',
      new RegExp(`^${escaped(second)} accepted ${escaped(first)}'s invitation and joined Acme `),
    );
  });

  it("an operator's disable-user: the user's session ends, and they and the account's admins are told (ADR 3120)", async () => {
    const leaver = `leaver-${unique()}@example.test`;
    await system.admin(
      'create-user',
      '--account',
      acme.tenant.accountId,
      '--email',
      leaver,
      '--password',
      PASSWORD,
    );
    const session = typed(
      ok(
        await typed().POST('/v1.1/sessions', { body: { email: leaver, password: PASSWORD } }),
        201,
        'sign in',
      ).session_token,
    );
    await system.admin('disable-user', '--user', leaver);
    assert.equal((await session.GET('/v1.1/sessions/current')).response.status, 401, 'their session ended');

    const theirs = await mailed(leaver, /^Your access to Acme .+ was turned off$/);
    assert.match(theirs.mail.text ?? '', /^An operator of the service turned off your access to Acme /);
    const admins = await mailed(
      acme.tenant.user.email,
      new RegExp(`^${escaped(leaver)}'s access to Acme .+ was turned off$`),
    );
    assert.match(admins.mail.text ?? '', /ask the service's operators why/);
  });

  it("an operator's set-api-access: every enabled user of the account is told it was turned off (ADR 3120)", async () => {
    const { account } = (await system.admin('create-account', '--name', `Paused ${unique()}`)) as {
      account: { id: string; name: string };
    };
    const owner = `owner-${unique()}@example.test`;
    await system.admin('create-user', '--account', account.id, '--email', owner, '--password', PASSWORD);
    await system.admin('set-api-access', '--account', account.id, '--enabled', 'false');
    const signIn = await typed().POST('/v1.1/sessions', { body: { email: owner, password: PASSWORD } });
    assert.equal(signIn.response.status, 403, 'nobody of the account signs in');
    const told = await mailed(
      owner,
      new RegExp(`^${escaped(account.name)}'s access to E-sign was turned off$`),
    );
    assert.match(told.mail.text ?? '', /^An operator of the service turned off /);
  });

  it("an operator's create-user --send-link: the user is e-mailed a link, chooses a password and signs in (ADR 3160)", async () => {
    const { account } = (await system.admin('create-account', '--name', `Welcome ${unique()}`)) as {
      account: { id: string; name: string };
    };
    const newcomer = `newcomer-${unique()}@example.test`;
    const made = (await system.admin(
      'create-user',
      '--account',
      account.id,
      '--email',
      newcomer,
      '--send-link',
    )) as {
      password?: string;
    };
    assert.equal(made.password, undefined, 'no password printed');
    const mail = await mailed(newcomer, /^Your E-sign account: choose your password$/);
    assert.match(mail.mail.text ?? '', new RegExp(`made you a user of the account ${escaped(account.name)}`));
    const link = /https?:\/\/\S+\/app\/reset-password\?token=prt_[A-Za-z0-9_-]+/.exec(mail.mail.text ?? '');
    assert.ok(link, mail.mail.text);
    const token = new URL(link[0]).searchParams.get('token')!;
    const chosen = 'a passphrase the newcomer chose';
    ok(
      await typed().POST('/v1.1/password-resets/confirm', { body: { token, new_password: chosen } }),
      200,
      'choose the password',
    );
    ok(await typed().POST('/v1.1/sessions', { body: { email: newcomer, password: chosen } }), 201, 'sign in');
  });

  it("an operator's delete-app: the app's owner is told its integration stopped (ADR 3120)", async () => {
    const name = `Nightly export ${unique()}`;
    const { app } = (await system.admin('create-app', '--user', acme.tenant.user.email, '--name', name)) as {
      app: { id: string };
    };
    await system.admin('delete-app', '--app', app.id);
    const told = await mailed(
      acme.tenant.user.email,
      new RegExp(`^Your Developer App “${escaped(name)}” was deleted$`),
    );
    assert.match(told.mail.text ?? '', /^An operator of the service deleted your Developer App /);
  });

  it("an operator's revoke-token: the token's user is told which token of which app stopped (ADR 3120)", async () => {
    const name = `Leaky sync ${unique()}`;
    const { app } = (await system.admin('create-app', '--user', acme.tenant.user.email, '--name', name)) as {
      app: { id: string };
    };
    const { token } = (await system.admin('create-token', '--app', app.id, '--name', 'CI runner')) as {
      token: { id: string };
    };
    await system.admin('revoke-token', '--token', token.id);
    const told = await mailed(
      acme.tenant.user.email,
      new RegExp(`^An access token of “${escaped(name)}” was revoked$`),
    );
    assert.match(
      told.mail.text ?? '',
      /^An operator of the service revoked the access token “CI runner” of your/,
    );
  });
});
