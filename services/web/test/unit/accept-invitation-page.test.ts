import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith } from '../support/fake-api.js';

const TOKEN = 'inv_token-from-the-link';
const PASSWORD = 'a long enough passphrase';
const post = (app: ReturnType<typeof appWith>, fields: Record<string, string>) =>
  request(app.callback)
    .post('/app/accept-invitation')
    .set('Cookie', 'esign_pre=abc')
    .type('form')
    .send({ _csrf: 'abc', ...fields });
const choose = (app: ReturnType<typeof appWith>, token = TOKEN) =>
  post(app, { token, new_password: PASSWORD, confirm_new_password: PASSWORD });

const refused = (...problem: Parameters<typeof apiProblem>) => ({
  'POST /v1.1/invitations/accept': apiProblem(...problem),
});

const cookieOf = (response: request.Response, name: string): string | undefined =>
  ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));

describe('web: accepting an invitation to an account', () => {
  it('opens the link’s page with no session, the token in its form and the password twice', async () => {
    const app = appWith({});
    const res = await request(app.callback).get(`/app/accept-invitation?token=${TOKEN}`).expect(200);
    assert.match(res.text, /<h1>Accept the invitation<\/h1>/);
    assert.match(res.text, new RegExp(`name="token" value="${TOKEN}"`));
    assert.match(res.text, /<label for="new-password">Password<\/label>/);
    assert.match(res.text, /<label for="confirm-new-password">Confirm password<\/label>/);
    assert.equal(res.text.match(/autocomplete="new-password"/g)?.length, 2);
    assert.match(res.text, /name="_csrf" value="[A-Za-z0-9_-]+"/);
    assert.equal(app.calls.length, 0, 'nothing asked of the API before the form is sent');
  });

  it('says a link without its token is incomplete, and offers no form', async () => {
    for (const path of ['/app/accept-invitation', '/app/accept-invitation?token=']) {
      const res = await request(appWith({}).callback).get(path).expect(400);
      assert.match(res.text, /This link is incomplete/);
      assert.doesNotMatch(res.text, /name="new_password"/);
    }
  });

  it('joins through the API without a credential, then sends the browser to sign in with who they are', async () => {
    const app = appWith({
      'POST /v1.1/invitations/accept': {
        user: { id: 'u9', email: 'new@acme.test', admin: false },
        account: { id: 'a1', name: 'Acme <Labs>' },
        site_ids: [3],
      },
    });
    const done = await choose(app).expect(303);
    assert.equal(done.headers.location, '/app/sign-in?reason=joined');
    const call = app.calls.find((c) => c.path === '/v1.1/invitations/accept');
    assert.deepEqual(call?.body, { token: TOKEN, password: PASSWORD });
    assert.equal(call?.bearer, undefined, 'no credential');
    const joined = cookieOf(done, 'esign_joined');
    assert.match(
      joined ?? '',
      /^esign_joined=[A-Za-z0-9_-]+; Path=\/app; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );

    const signIn = await request(app.callback)
      .get('/app/sign-in?reason=joined')
      .set('Cookie', joined!.split(';')[0]!)
      .expect(200);
    assert.match(
      signIn.text,
      /class="notice" role="status">You joined Acme &lt;Labs&gt;\. Sign in as new@acme\.test\.</,
    );
    assert.match(signIn.text, /id="email"\s+name="email"\s+type="email"\s+value="new@acme\.test"/);
    // The address alone cannot put a name on the page.
    const bare = await request(app.callback).get('/app/sign-in?reason=joined&account=Evil').expect(200);
    assert.match(
      bare.text,
      /You joined the account\. Sign in with the e-mail address the invitation was sent to/,
    );
    assert.doesNotMatch(bare.text, /Evil/);
  });

  it('says so on sign-in when the invitation made them an admin of the account (ADR 3090)', async () => {
    const app = appWith({
      'POST /v1.1/invitations/accept': {
        user: { id: 'u9', email: 'boss@acme.test', admin: true },
        account: { id: 'a1', name: 'Acme' },
        site_ids: [],
      },
    });
    const done = await choose(app).expect(303);
    const signIn = await request(app.callback)
      .get('/app/sign-in?reason=joined')
      .set('Cookie', cookieOf(done, 'esign_joined')!.split(';')[0]!)
      .expect(200);
    assert.match(
      signIn.text,
      /class="notice" role="status">You joined Acme as an admin\. Sign in as boss@acme\.test\.</,
    );
  });

  it('refuses entries that differ without calling the API, and a weak password beside its field', async () => {
    const app = appWith({});
    const differs = await post(app, {
      token: TOKEN,
      new_password: PASSWORD,
      confirm_new_password: 'something else entirely',
    }).expect(422);
    assert.match(differs.text, /id="confirm-new-password-error">does not match the new password</);
    assert.match(differs.text, /typed differently the second time; you have not joined yet/);
    assert.equal(app.calls.length, 0);

    const weak = await choose(
      appWith(
        refused(
          422,
          'weak_password',
          'The password breaks a rule.',
          'password',
          'must be 12 to 1,024 characters',
        ),
      ),
    ).expect(422);
    assert.match(weak.text, /id="new-password-error">must be 12 to 1,024 characters</);
    assert.match(weak.text, /href="#new-password">Password must be 12 to 1,024 characters</);
    assert.match(weak.text, new RegExp(`name="token" value="${TOKEN}"`), 'the form stays, to try again');
  });

  it('explains a dead link (ask for a new invitation) and an address that already has a user', async () => {
    const dead = await choose(
      appWith(
        refused(
          400,
          'invalid_invitation_token',
          'This invitation link is unknown, used, revoked, replaced by a newer one or expired.',
          'token',
        ),
      ),
    ).expect(400);
    assert.match(
      dead.text,
      /This invitation link is unknown, used, revoked, replaced by a newer one or expired\./,
    );
    assert.match(dead.text, /Ask the person who invited you to send you a new invitation/);
    assert.doesNotMatch(dead.text, /name="new_password"/, 'no form for a dead link');

    const taken = await choose(
      appWith(refused(409, 'email_taken', 'A user already has this e-mail address.')),
    ).expect(409);
    assert.match(taken.text, /A user already has the e-mail address this invitation was sent to/);
    assert.match(taken.text, /<a href="\/app\/sign-in">Sign in<\/a>/);
    assert.match(taken.text, /href="\/app\/forgot-password">choose a new password</);
    assert.doesNotMatch(taken.text, /name="new_password"/);
  });

  it('shows a rate limit with its wait and keeps the form; refuses a form without its anti-forgery value', async () => {
    const limited = await choose(
      appWith(refused(429, 'rate_limited', 'Too many calls; try again in 12 s.')),
    ).expect(429);
    assert.match(limited.text, /Please wait/);
    assert.match(limited.text, /try again in 12 s/);
    assert.match(limited.text, /name="new_password"/);

    const app = appWith({});
    await request(app.callback)
      .post('/app/accept-invitation')
      .type('form')
      .send({ token: TOKEN, new_password: PASSWORD, confirm_new_password: PASSWORD })
      .expect(403);
    assert.equal(app.calls.length, 0);
  });
});
