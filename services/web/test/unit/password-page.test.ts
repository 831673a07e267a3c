import assert from 'node:assert/strict';
import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { appWith, CURRENT, SESSION } from '../support/fake-api.js';

const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
const PATH = 'POST /v1.1/sessions/current/password';

describe('web: changing one’s own password', () => {
  const post = (answers: Record<string, unknown>, fields: Record<string, string>) => {
    const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, ...answers });
    const sent = request(app.callback)
      .post('/app/password')
      .set('Cookie', COOKIE)
      .set('Origin', 'http://127.0.0.1:8080')
      .type('form')
      .send({ _csrf: csrfTokenOf(SESSION), ...fields });
    return { sent, calls: app.calls };
  };
  const fields = {
    current_password: 'the old passphrase',
    new_password: 'a new and longer passphrase',
    confirm_new_password: 'a new and longer passphrase',
  };

  it('is linked from every page, and says what a change ends before it is made', async () => {
    const { callback } = appWith({ 'GET /v1.1/sessions/current': CURRENT });
    const page = await request(callback).get('/app/password').set('Cookie', COOKIE).expect(200);
    assert.match(page.text, /<h1>Change password<\/h1>/);
    assert.match(page.text, /signs you out everywhere/);
    assert.match(page.text, /autocomplete="current-password"/);
    assert.equal(page.text.match(/autocomplete="new-password"/g)?.length, 2);
    assert.match(page.text, /href="\/app\/password">Change password</);
  });

  it('changes it through the API with the session, then forgets the session and sends the browser to sign in', async () => {
    const { sent, calls } = post(
      { [PATH]: { sessions_ended: 2, tokens_revoked: 3, client_secrets_removed: 1 } },
      fields,
    );
    const res = await sent.expect(303);
    assert.equal(res.headers.location, '/app/sign-in?reason=password');
    const call = calls.find((c) => c.path === '/v1.1/sessions/current/password');
    assert.equal(call?.bearer, SESSION);
    assert.deepEqual(call?.body, {
      current_password: 'the old passphrase',
      new_password: 'a new and longer passphrase',
    });
    const cleared = (res.headers['set-cookie'] as unknown as string[]).filter((c) => /^esign_\w+=;/.test(c));
    assert.deepEqual(cleared.map((c) => c.split('=')[0]).sort(), ['esign_api', 'esign_session']);
    const signIn = await request(appWith({}).callback).get('/app/sign-in?reason=password').expect(200);
    assert.match(signIn.text, /Your password was changed and you were signed out everywhere/);
  });

  it('refuses a second entry that differs without calling the API, naming the field', async () => {
    const { sent, calls } = post({}, { ...fields, confirm_new_password: 'a new and longer passphrasE' });
    const res = await sent.expect(422);
    assert.equal(calls.filter((c) => c.path === '/v1.1/sessions/current/password').length, 0);
    assert.match(
      res.text,
      /<a href="#confirm-new-password">Confirm new password does not match the new password<\/a>/,
    );
    assert.match(res.text, /id="confirm-new-password-error">does not match the new password</);
    assert.match(res.text, /id="confirm-new-password"[^>]*aria-invalid="true"/);
  });

  it("shows the API's refusal beside the field it names, and keeps the session", async () => {
    const { sent } = post(
      {
        [PATH]: {
          type: 'x',
          title: 'Unauthorized',
          status: 401,
          code: 'invalid_password',
          detail: 'The current password is wrong; nothing was changed.',
          errors: [{ path: 'current_password', message: 'is wrong' }],
        },
      },
      fields,
    );
    const res = await sent.expect(401);
    assert.match(res.text, /The current password is wrong; nothing was changed\./);
    assert.match(res.text, /id="current-password-error">is wrong</);
    assert.equal(res.headers['set-cookie'], undefined, 'nothing is forgotten');
  });
});
