import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import request from 'supertest';
import { NoContent, apiClient } from '../../src/api-client.js';
import { csrfTokenOf } from '../../src/cookies.js';
import { ACCOUNT, COOKIE, INVITATION_ID, invitation, page, postAsAdmin } from '../support/account-users.js';
import { apiProblem, appWith, CURRENT, SESSION } from '../support/fake-api.js';

const problem = apiProblem;

describe('web: the account’s users and invitations (account admins)', () => {
  it('is linked from the header and from Sites for an admin; others see neither link nor lists', async () => {
    const admin = appWith(ACCOUNT);
    const sites = await request(admin.callback).get('/app/sites').set('Cookie', COOKIE).expect(200);
    assert.match(sites.text, /<a href="\/app\/users"\s*>Users<\/a/);
    assert.match(sites.text, /href="\/app\/users">invite them on the Users page</);

    const member = appWith({
      ...ACCOUNT,
      'GET /v1.1/sessions/current': { ...CURRENT, account_admin: false },
    });
    const users = await request(member.callback).get('/app/users').set('Cookie', COOKIE).expect(200);
    assert.match(users.text, /Only an administrator of your account sees its users/);
    assert.match(
      users.text,
      /Its administrator is <a href="mailto:owner@acme\.test">owner@acme\.test<\/a>\./,
      'whom to ask',
    );
    assert.doesNotMatch(users.text, /href="\/app\/users"/, 'no Users link in the header');
    assert.deepEqual(
      member.calls.map((c) => c.path),
      ['/v1.1/sessions/current', '/v1.1/account'],
      'no administration call',
    );
  });

  it('lists the users with their Sites by name, the open invitations with Revoke, and the invite form', async () => {
    const app = appWith(ACCOUNT);
    const res = await request(app.callback).get('/app/users').set('Cookie', COOKIE).expect(200);
    assert.match(res.text, /<a href="\/app\/users"\s+aria-current="page"/);
    assert.match(res.text, /<td>owner@acme\.test<\/td>\s*<td>Production, Development<\/td>/);
    assert.match(res.text, /gone@acme\.test[\s\S]*state-disabled">disabled</);
    assert.match(res.text, /<td>ann@example\.com<\/td>\s*<td>Development<\/td>/);
    assert.match(res.text, /<time datetime="2030-01-08T00:00:00.000Z">/);
    assert.match(
      res.text,
      new RegExp(
        `action="/app/users/invitations/${INVITATION_ID}/revoke"[\\s\\S]*?aria-label="Revoke the invitation of ann@example.com"`,
      ),
    );
    assert.match(res.text, /action="\/app\/users\/invitations"/);
    // Resend posts the invite form's fields again: the address and its Sites.
    assert.match(
      res.text,
      /<input type="hidden" name="email" value="ann@example\.com" \/>\s*<input type="hidden" name="site_4" value="on" \/>\s*<button type="submit" class="secondary" aria-label="Send the invitation of ann@example\.com again"/,
    );
    assert.match(res.text, /<label for="invite-email">E-mail address<\/label>/);
    // The current Site (the first, Production) is ticked; the other is not.
    assert.match(res.text, /name="site_3" value="on"\s+checked/);
    assert.doesNotMatch(res.text, /name="site_4" value="on"\s+checked/);
    for (const call of app.calls) assert.equal(call.bearer, SESSION, `${call.path} with the session`);
  });

  it('invites the address onto the ticked Sites, then says where it went and for how long', async () => {
    const app = appWith({
      ...ACCOUNT,
      'POST /v1.1/account/invitations': invitation('new@acme.test', [3, 4]),
    });
    const sent = await postAsAdmin(app, '/app/users/invitations', {
      email: ' new@acme.test ',
      site_3: 'on',
      site_4: 'on',
    }).expect(303);
    assert.equal(sent.headers.location, '/app/users?invited=new%40acme.test');
    assert.deepEqual(app.calls.find((c) => c.path === '/v1.1/account/invitations')?.body, {
      email: 'new@acme.test',
      site_ids: [3, 4],
    });

    const listed = appWith({
      ...ACCOUNT,
      'GET /v1.1/account/invitations?per_page=100': page([invitation('new@acme.test', [3, 4])]),
    });
    const after = await request(listed.callback)
      .get('/app/users?invited=new%40acme.test')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(
      after.text,
      /role="status">\s*Invitation sent to new@acme\.test; the link works for 7 days\.\s*</,
    );
    // An address no open invitation has: a made-up link claims nothing.
    const forged = await request(listed.callback)
      .get('/app/users?invited=boss%40evil.example')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.doesNotMatch(forged.text, /Invitation sent to/);
  });

  it('shows refusals beside their fields, keeping what was typed and ticked', async () => {
    const taken = appWith({
      ...ACCOUNT,
      'POST /v1.1/account/invitations': problem(
        409,
        'already_account_user',
        'A user of the account already has this address.',
        'email',
        'is already a user of the account',
      ),
    });
    const res = await postAsAdmin(taken, '/app/users/invitations', {
      email: 'owner@acme.test',
      site_4: 'on',
    }).expect(409);
    assert.match(res.text, /id="invite-email-error">is already a user of the account</);
    assert.match(res.text, /value="owner@acme\.test"/);
    assert.match(res.text, /name="site_4" value="on"\s+checked/);
    assert.doesNotMatch(res.text, /name="site_3" value="on"\s+checked/);
    assert.match(res.text, /href="#invite-email">Email is already a user/);

    const sites = appWith({
      ...ACCOUNT,
      'POST /v1.1/account/invitations': problem(
        422,
        'unknown_sites',
        'Some Sites are not the account’s.',
        'site_ids',
        'names Sites that are not the account’s',
      ),
    });
    const unknown = await postAsAdmin(sites, '/app/users/invitations', {
      email: 'x@acme.test',
      site_3: 'on',
    }).expect(422);
    assert.match(unknown.text, /id="invite-sites-error">names Sites that are not the account’s</);
    assert.match(unknown.text, /aria-describedby="invite-sites-hint invite-sites-error"/);
  });

  it('says when inviting may go on after the hourly limit (429 with Retry-After)', async () => {
    const app = appWith({
      ...ACCOUNT,
      'POST /v1.1/account/invitations': {
        ...problem(429, 'too_many_invitations', 'The account sent its 20 invitations of the hour.'),
        retryAfterSeconds: 1500,
      },
    });
    const res = await postAsAdmin(app, '/app/users/invitations', { email: 'x@acme.test' }).expect(429);
    assert.match(res.text, /Please wait/);
    assert.match(
      res.text,
      /The account sent its 20 invitations of the hour\. You can send invitations again in 25 minutes \(after \d\d:\d\d UTC\)\./,
    );
  });

  it('revokes an invitation, and wants the session’s anti-forgery token to', async () => {
    const app = appWith({ ...ACCOUNT, [`DELETE /v1.1/account/invitations/${INVITATION_ID}`]: '' });
    await request(app.callback)
      .post(`/app/users/invitations/${INVITATION_ID}/revoke`)
      .set('Cookie', COOKIE)
      .type('form')
      .send({ _csrf: csrfTokenOf('ses_another-session') })
      .expect(403);
    assert.equal(app.calls.filter((c) => c.method === 'DELETE').length, 0);
    const revoked = await postAsAdmin(app, `/app/users/invitations/${INVITATION_ID}/revoke`, {}).expect(303);
    assert.equal(revoked.headers.location, '/app/users?done=revoked');
    assert.equal(app.calls.find((c) => c.method === 'DELETE')?.bearer, SESSION);
    const after = await request(app.callback)
      .get('/app/users?done=revoked')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(after.text, /The invitation was revoked: its link no longer works\./);

    const gone = await postAsAdmin(appWith(ACCOUNT), '/app/users/invitations/nope/revoke', {}).expect(404);
    assert.match(gone.text, /href="\/app\/users">Back</);
  });

  it('disables a colleague and enables them again (ADR 3040); the admin’s own row has no Disable', async () => {
    const listed = await request(appWith(ACCOUNT).callback)
      .get('/app/users')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(listed.text, /owner@acme\.test[\s\S]*?<span class="hint">you, the only admin<\/span>/);
    assert.doesNotMatch(listed.text, /Step down as admin/, 'the only admin cannot step down');
    assert.doesNotMatch(listed.text, /action="\/app\/users\/u1\/(disable|enable)"/, 'no Disable for oneself');
    assert.match(listed.text, /action="\/app\/users\/u2\/enable"[\s\S]*?aria-label="Enable gone@acme\.test"/);

    const gone = { id: 'u2', email: 'gone@acme.test', disabled_at: null, admin: false, site_ids: [] };
    const app = appWith({ ...ACCOUNT, 'PATCH /v1.1/account/users/u2': gone });
    const enabled = await postAsAdmin(app, '/app/users/u2/enable', {}).expect(303);
    assert.equal(enabled.headers.location, '/app/users?done=enabled');
    const disabled = await postAsAdmin(app, '/app/users/u2/disable', {}).expect(303);
    assert.equal(disabled.headers.location, '/app/users?done=disabled');
    assert.deepEqual(
      app.calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body, c.bearer]),
      [
        ['/v1.1/account/users/u2', { disabled: false }, SESSION],
        ['/v1.1/account/users/u2', { disabled: true }, SESSION],
      ],
    );
    const after = await request(app.callback)
      .get('/app/users?done=disabled')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(after.text, /The user was disabled: their sessions ended/);

    const self = appWith({
      ...ACCOUNT,
      'PATCH /v1.1/account/users/u1': problem(
        409,
        'cannot_disable_yourself',
        'You cannot disable your own user.',
      ),
    });
    const refused = await postAsAdmin(self, '/app/users/u1/disable', {}).expect(409);
    assert.match(refused.text, /You cannot disable your own user\./);
  });

  it('the API client keeps a 429’s Retry-After with its problem', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1500' });
      res.end(JSON.stringify({ type: 'x', title: 'Too many', status: 429, code: 'too_many_invitations' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await apiClient(`http://127.0.0.1:${port}`).call({
        method: 'POST',
        path: '/v1.1/account/invitations',
        body: {},
        codec: NoContent,
      });
      assert.ok(E.isLeft(answer));
      assert.equal(answer.left.code, 'too_many_invitations');
      assert.equal(answer.left.retryAfterSeconds, 1500);
    } finally {
      server.close();
    }
  });
});
