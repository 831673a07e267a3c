import assert from 'node:assert/strict';
import request from 'supertest';
import { appWith } from '../support/fake-api.js';

const TOKEN = 'prt_token-from-the-link';
const post = (app: ReturnType<typeof appWith>, path: string, fields: Record<string, string>) =>
  request(app.callback)
    .post(path)
    .set('Cookie', 'esign_pre=abc')
    .type('form')
    .send({ _csrf: 'abc', ...fields });

describe('web: a forgotten password', () => {
  it('is linked from sign-in; asking sends the address to the API and says the same whatever it answered', async () => {
    const signIn = await request(appWith({}).callback).get('/app/sign-in').expect(200);
    assert.match(signIn.text, /href="\/app\/forgot-password">Forgotten your password\?</);
    const app = appWith({ 'POST /v1.1/password-resets': { expires_in: 1800 } });
    const res = await post(app, '/app/forgot-password', { email: ' dev@acme.test ' }).expect(200);
    assert.deepEqual(app.calls.find((c) => c.path === '/v1.1/password-resets')?.body, {
      email: 'dev@acme.test',
    });
    assert.equal(app.calls[0]?.bearer, undefined, 'no credential');
    assert.match(
      res.text,
      /If a user has the address dev@acme\.test, a link to choose a new password is on its way/,
    );
    assert.match(res.text, /for 30 minutes/);
  });

  it('shows the API’s refusal of the address beside the field', async () => {
    const app = appWith({
      'POST /v1.1/password-resets': {
        type: 'x',
        title: 'Invalid request body',
        status: 422,
        code: 'invalid_body',
        detail: 'The body is invalid.',
        errors: [{ path: 'email', message: 'must be an e-mail address' }],
      },
    });
    const res = await post(app, '/app/forgot-password', { email: 'nope' }).expect(422);
    assert.match(res.text, /id="email-error">must be an e-mail address</);
  });

  it('opens the link’s page with the token in its form, and sets the new password through the API', async () => {
    const page = await request(appWith({}).callback).get(`/app/reset-password?token=${TOKEN}`).expect(200);
    assert.match(page.text, new RegExp(`name="token" value="${TOKEN}"`));
    assert.equal(page.text.match(/autocomplete="new-password"/g)?.length, 2);
    const app = appWith({
      'POST /v1.1/password-resets/confirm': {
        sessions_ended: 0,
        tokens_revoked: 2,
        client_secrets_removed: 0,
      },
    });
    const done = await post(app, '/app/reset-password', {
      token: TOKEN,
      new_password: 'a new and longer passphrase',
      confirm_new_password: 'a new and longer passphrase',
    }).expect(303);
    assert.equal(done.headers.location, '/app/sign-in?reason=password');
    assert.deepEqual(app.calls.find((c) => c.path === '/v1.1/password-resets/confirm')?.body, {
      token: TOKEN,
      new_password: 'a new and longer passphrase',
    });
  });

  it('refuses entries that differ without calling the API, and explains a dead link with a way to ask again', async () => {
    const app = appWith({});
    const differs = await post(app, '/app/reset-password', {
      token: TOKEN,
      new_password: 'a new and longer passphrase',
      confirm_new_password: 'something else entirely',
    }).expect(422);
    assert.match(differs.text, /id="confirm-new-password-error">does not match the new password</);
    assert.equal(app.calls.length, 0);
    const dead = await post(
      appWith({
        'POST /v1.1/password-resets/confirm': {
          type: 'x',
          title: 'Invalid request body',
          status: 400,
          code: 'invalid_reset_token',
          detail: 'This link to choose a new password is unknown, used, replaced by a newer one or expired.',
        },
      }),
      '/app/reset-password',
      {
        token: TOKEN,
        new_password: 'a new and longer passphrase',
        confirm_new_password: 'a new and longer passphrase',
      },
    ).expect(400);
    assert.match(
      dead.text,
      /This link to choose a new password is unknown, used, replaced by a newer one or expired\./,
    );
    assert.match(dead.text, /href="\/app\/forgot-password">Ask for a new link</);
    assert.doesNotMatch(dead.text, /name="new_password"/, 'no form for a dead link');
  });
});
