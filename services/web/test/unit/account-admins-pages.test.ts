import assert from 'node:assert/strict';
import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { ACCOUNT, AT, COOKIE, page, postAsAdmin } from '../support/account-users.js';
import { apiProblem, appWith, CURRENT, SESSION } from '../support/fake-api.js';

const OWNER = { id: 'u1', email: 'owner@acme.test', disabled_at: null, admin: true, site_ids: [3, 4] };
const GONE = {
  id: 'u2',
  email: 'gone@acme.test',
  disabled_at: AT,
  admin: false,
  site_ids: [],
};
const BOB = { id: 'u3', email: 'bob@acme.test', disabled_at: null, admin: true, site_ids: [3] };

/** The account of `ACCOUNT` with a second admin, bob@acme.test. */
const TWO_ADMINS = { ...ACCOUNT, 'GET /v1.1/account/users?per_page=100': page([OWNER, GONE, BOB]) };

const patches = (app: ReturnType<typeof appWith>) =>
  app.calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body, c.bearer]);

/** The table row (`<tr>…</tr>`) of the user with `email`. */
const rowOf = (html: string, email: string): string => {
  const row = html.split('<tr>').find((r) => r.includes(`<td>${email}</td>`));
  assert.ok(row, `a row of ${email}`);
  return row.slice(0, row.indexOf('</tr>'));
};

describe('web: the account’s admins (ADR 3060)', () => {
  it('shows each user’s role, and Make admin or Remove admin beside Disable or Enable', async () => {
    const res = await request(appWith(TWO_ADMINS).callback)
      .get('/app/users')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(res.text, /<th scope="col">State<\/th>\s*<th scope="col">Role<\/th>/);

    const gone = rowOf(res.text, 'gone@acme.test');
    assert.match(gone, /<td>Member<\/td>/);
    assert.match(gone, /action="\/app\/users\/u2\/enable"[\s\S]*?aria-label="Enable gone@acme\.test"/);
    // Giving the role is no danger: the button is not styled as one.
    assert.match(
      gone,
      /action="\/app\/users\/u2\/make-admin"[\s\S]*?<button type="submit" class="secondary" aria-label="Make admin gone@acme\.test">\s*Make admin\s*</,
    );
    assert.doesNotMatch(gone, /remove-admin/);

    const bob = rowOf(res.text, 'bob@acme.test');
    assert.match(bob, /<td>Admin<\/td>/);
    assert.match(bob, /action="\/app\/users\/u3\/disable"[\s\S]*?aria-label="Disable bob@acme\.test"/);
    assert.match(
      bob,
      /action="\/app\/users\/u3\/remove-admin"[\s\S]*?aria-label="Remove admin bob@acme\.test"/,
    );
    assert.doesNotMatch(bob, /make-admin/);

    // One's own row: no Disable and no Make admin, but Step down.
    const own = rowOf(res.text, 'owner@acme.test');
    assert.match(own, /<td>Admin<\/td>/);
    assert.match(own, /<span class="hint">you<\/span>/);
    assert.match(own, /action="\/app\/users\/u1\/remove-admin"[\s\S]*?>Step down as admin</);
    assert.doesNotMatch(own, /\/(disable|enable|make-admin)"/);
  });

  it('makes a colleague an admin and takes it away again: the PATCH body, then a notice', async () => {
    const app = appWith({
      ...TWO_ADMINS,
      'PATCH /v1.1/account/users/u2': { ...GONE, admin: true },
      'PATCH /v1.1/account/users/u3': { ...BOB, admin: false },
    });
    const made = await postAsAdmin(app, '/app/users/u2/make-admin', {}).expect(303);
    assert.equal(made.headers.location, '/app/users?done=made-admin');
    const removed = await postAsAdmin(app, '/app/users/u3/remove-admin', {}).expect(303);
    assert.equal(removed.headers.location, '/app/users?done=removed-admin');
    assert.deepEqual(patches(app), [
      ['/v1.1/account/users/u2', { admin: true }, SESSION],
      ['/v1.1/account/users/u3', { admin: false }, SESSION],
    ]);

    for (const [done, said] of [
      ['made-admin', /role="status">The user is now an admin: they manage the account’s users/],
      ['removed-admin', /role="status">The user is no longer an admin: they keep their Sites/],
    ] as const) {
      const after = await request(app.callback)
        .get(`/app/users?done=${done}`)
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(after.text, said);
    }
  });

  it('steps down: then the member’s page, saying so (its notice only there)', async () => {
    const app = appWith({ ...TWO_ADMINS, 'PATCH /v1.1/account/users/u1': { ...OWNER, admin: false } });
    const stepped = await postAsAdmin(app, '/app/users/u1/remove-admin', {}).expect(303);
    assert.equal(stepped.headers.location, '/app/users?done=stepped-down');
    assert.deepEqual(patches(app), [['/v1.1/account/users/u1', { admin: false }, SESSION]]);

    const member = appWith({
      ...TWO_ADMINS,
      'GET /v1.1/sessions/current': { ...CURRENT, account_admin: false },
    });
    const after = await request(member.callback)
      .get('/app/users?done=stepped-down')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(after.text, /role="status">You are no longer an admin of the account\./);
    assert.match(after.text, /Only an administrator of your account sees its users/);
    assert.doesNotMatch(after.text, /href="\/app\/users"/, 'no Users link in the header');

    // An admin given that address sees their lists, and no claim that they stepped down.
    const admin = await request(app.callback)
      .get('/app/users?done=stepped-down')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.doesNotMatch(admin.text, /no longer an admin of the account/);
  });

  it('shows auth’s refusals: the only admin stepping down (last_admin), one demoted a moment ago', async () => {
    const only = appWith({
      ...ACCOUNT,
      'PATCH /v1.1/account/users/u1': apiProblem(
        409,
        'last_admin',
        'You are the account’s only enabled admin: make another user admin before you step down. Nothing changed.',
        'admin',
        'cannot be false for the account’s only enabled admin',
      ),
    });
    const refused = await postAsAdmin(only, '/app/users/u1/remove-admin', {}).expect(409);
    assert.match(
      refused.text,
      /role="alert"><p>You are the account’s only enabled admin: make another user admin before you step down\. Nothing changed\.<\/p>/,
    );
    assert.match(refused.text, /href="\/app\/users">Back</);
    assert.doesNotMatch(refused.text, /no longer an admin/);

    const demoted = appWith({
      ...ACCOUNT,
      'PATCH /v1.1/account/users/u2': apiProblem(
        403,
        'account_admin_required',
        'Only an admin of the account can do this.',
      ),
    });
    const late = await postAsAdmin(demoted, '/app/users/u2/make-admin', {}).expect(403);
    assert.match(late.text, /Only an admin of the account can do this\./);
  });

  it('wants the session’s anti-forgery token, and the page’s origin, to change a role', async () => {
    const app = appWith({
      ...TWO_ADMINS,
      'PATCH /v1.1/account/users/u2': { ...GONE, admin: true },
      'PATCH /v1.1/account/users/u3': { ...BOB, admin: false },
    });
    for (const path of [
      '/app/users/u2/make-admin',
      '/app/users/u3/remove-admin',
      '/app/users/u1/remove-admin',
    ]) {
      await request(app.callback)
        .post(path)
        .set('Cookie', COOKIE)
        .type('form')
        .send({ _csrf: csrfTokenOf('ses_another-session') })
        .expect(403);
      await request(app.callback).post(path).set('Cookie', COOKIE).type('form').send({}).expect(403);
      await request(app.callback)
        .post(path)
        .set('Cookie', COOKIE)
        .set('Origin', 'https://evil.example')
        .type('form')
        .send({ _csrf: csrfTokenOf(SESSION) })
        .expect(403);
    }
    assert.deepEqual(patches(app), [], 'nothing changed');
  });
});
