import assert from 'node:assert/strict';
import request from 'supertest';
import { ACCOUNT, COOKIE, invitation, page, postAsAdmin } from '../support/account-users.js';
import { apiProblem, appWith } from '../support/fake-api.js';

const ADMIN_INVITATION = { ...invitation('boss@acme.test', [3], true), id: 'inv-admin' };
const MEMBER_INVITATION = invitation('ann@example.com', [4]);
/** The account of `ACCOUNT` with two open invitations: a member's and an admin's. */
const TWO_INVITATIONS = {
  ...ACCOUNT,
  'GET /v1.1/account/invitations?per_page=100': page([MEMBER_INVITATION, ADMIN_INVITATION]),
};

const usersPage = async (answers: Record<string, unknown>, path = '/app/users') =>
  (await request(appWith(answers).callback).get(path).set('Cookie', COOKIE).expect(200)).text;

/** The table row (`<tr>…</tr>`) of `email`. */
const rowOf = (html: string, email: string): string => {
  const row = html.split('<tr>').find((r) => r.includes(`<td>${email}</td>`));
  assert.ok(row, `a row of ${email}`);
  return row.slice(0, row.indexOf('</tr>'));
};

/** The hidden fields in `html` (a Resend button’s form), by name. */
const hiddenFields = (html: string): Record<string, string> =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)" \/>/g)].map(
      (m): [string, string] => [m[1]!, m[2]!],
    ),
  );

const adminBox = /<input\s+type="checkbox"\s+id="invite-admin"\s+name="admin"\s+value="on"([^>]*)\/>/;

describe('web: inviting someone as an admin of the account (ADR 3090)', () => {
  it('offers a labelled “Make them an admin” box, unticked, its hint tied by aria-describedby', async () => {
    const html = await usersPage(ACCOUNT);
    const box = adminBox.exec(html);
    assert.ok(box, 'the admin box');
    assert.doesNotMatch(box[1]!, /checked/);
    assert.match(box[1]!, /aria-describedby="invite-admin-hint"/);
    assert.match(html, /<label for="invite-admin">Make them an admin<\/label>/);
    assert.match(
      html,
      /<p class="hint" id="invite-admin-hint">\s*An admin manages the account’s users, invitations and Sites[^<]*<\/p>/,
    );
    // Inside the invite form, before its button.
    assert.match(
      html,
      /action="\/app\/users\/invitations" novalidate[\s\S]*?id="invite-admin"[\s\S]*?>Invite</,
    );
  });

  it('the ticked box invites an admin (admin: true); unticked, the invitation names no admin', async () => {
    const app = appWith({
      ...ACCOUNT,
      'POST /v1.1/account/invitations': invitation('boss@acme.test', [3], true),
    });
    await postAsAdmin(app, '/app/users/invitations', {
      email: 'boss@acme.test',
      site_3: 'on',
      admin: 'on',
    }).expect(303);
    await postAsAdmin(app, '/app/users/invitations', { email: 'ann@acme.test', site_3: 'on' }).expect(303);
    assert.deepEqual(
      app.calls.filter((c) => c.method === 'POST').map((c) => c.body),
      [
        { email: 'boss@acme.test', site_ids: [3], admin: true },
        { email: 'ann@acme.test', site_ids: [3] },
      ],
    );
  });

  it('a refusal shows the form as it was sent: the admin box ticked, or not', async () => {
    const taken = appWith({
      ...ACCOUNT,
      'POST /v1.1/account/invitations': apiProblem(
        409,
        'already_account_user',
        'A user of the account already has this address.',
        'email',
        'is already a user of the account',
      ),
    });
    const ticked = await postAsAdmin(taken, '/app/users/invitations', {
      email: 'owner@acme.test',
      admin: 'on',
    }).expect(409);
    assert.match(ticked.text, /id="invite-email-error">is already a user of the account</);
    assert.match(adminBox.exec(ticked.text)?.[1] ?? '', /checked/);

    const unticked = await postAsAdmin(taken, '/app/users/invitations', { email: 'owner@acme.test' }).expect(
      409,
    );
    assert.doesNotMatch(adminBox.exec(unticked.text)?.[1] ?? 'missing checked', /checked/);
  });

  it('lists each open invitation’s role, and Resend keeps it', async () => {
    const html = await usersPage(TWO_INVITATIONS);
    assert.match(
      html,
      /aria-label="Open invitations"[\s\S]*?<th scope="col">Sites<\/th>\s*<th scope="col">Role<\/th>/,
    );
    const admin = rowOf(html, 'boss@acme.test');
    const member = rowOf(html, 'ann@example.com');
    assert.match(admin, /<td>Production<\/td>\s*<td>Admin<\/td>/);
    assert.match(member, /<td>Development<\/td>\s*<td>Member<\/td>/);

    // Resend posts the invite form's fields again, the admin box's among them.
    const resendAdmin = hiddenFields(admin.slice(0, admin.indexOf('</form>')));
    const resendMember = hiddenFields(member.slice(0, member.indexOf('</form>')));
    assert.equal(resendAdmin.admin, 'on');
    assert.equal(resendMember.admin, undefined);
    const app = appWith({ ...TWO_INVITATIONS, 'POST /v1.1/account/invitations': ADMIN_INVITATION });
    const { _csrf: _, ...fields } = resendAdmin;
    await postAsAdmin(app, '/app/users/invitations', fields).expect(303);
    assert.deepEqual(app.calls.find((c) => c.method === 'POST')?.body, {
      email: 'boss@acme.test',
      site_ids: [3],
      admin: true,
    });
  });

  it('“Invitation sent to …” says “as an admin” for a listed admin invitation, never from the address alone', async () => {
    const admin = await usersPage(TWO_INVITATIONS, '/app/users?invited=boss%40acme.test');
    assert.match(
      admin,
      /role="status">\s*Invitation sent to boss@acme\.test as an admin; the link works for 7 days\.\s*</,
    );
    const member = await usersPage(TWO_INVITATIONS, '/app/users?invited=ann%40example.com&admin=on');
    assert.match(
      member,
      /role="status">\s*Invitation sent to ann@example\.com; the link works for 7 days\.\s*</,
    );
    assert.doesNotMatch(member, /as an admin;/);
  });
});
