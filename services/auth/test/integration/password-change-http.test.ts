import assert from 'node:assert/strict';
import request from 'supertest';
import { CreatedTokenView, PasswordChangedView, SessionView } from '@esign/contracts';
import { introspectToken } from '../../src/application/introspect-token.js';
import { PASSWORD, seedAccount, startHarness, type Harness } from '../support/harness.js';
import { valueOf } from '../support/port-task.js';

const NEW_PASSWORD = 'a new and longer passphrase';

describe('auth: POST /v1.1/sessions/current/password', () => {
  let h: Harness;

  before(async () => {
    h = await startHarness('auth_password_change');
    await seedAccount(h.deps, {
      sites: ['Production'],
      users: { 'dev@acme.test': ['Production'], 'other@acme.test': ['Production'], 'guess@acme.test': [] },
    });
  });
  after(() => h.close());

  const signIn = async (email: string, password = PASSWORD) => {
    const response = await request(h.callback).post('/v1.1/sessions').send({ email, password }).expect(201);
    assert.ok(SessionView.is(response.body));
    return response.body.session_token;
  };
  const change = (session: string, body: object) =>
    request(h.callback)
      .post('/v1.1/sessions/current/password')
      .set('Authorization', `Bearer ${session}`)
      .send(body);
  const current = (session: string) =>
    request(h.callback).get('/v1.1/sessions/current').set('Authorization', `Bearer ${session}`);

  it('changes the password and ends every session, token and client secret of the user', async () => {
    const session = await signIn('dev@acme.test');
    const elsewhere = await signIn('dev@acme.test');
    const colleague = await signIn('other@acme.test');
    const app = await request(h.callback)
      .post('/v1.1/apps')
      .set('Authorization', `Bearer ${session}`)
      .send({ name: 'Integration' })
      .expect(201);
    const token = await request(h.callback)
      .post(`/v1.1/apps/${app.body.id}/tokens`)
      .set('Authorization', `Bearer ${session}`)
      .send({ password: PASSWORD })
      .expect(201);
    assert.ok(CreatedTokenView.is(token.body));
    await request(h.callback)
      .post(`/v1.1/apps/${app.body.id}/client-secret`)
      .set('Authorization', `Bearer ${session}`)
      .send({ password: PASSWORD })
      .expect(201);

    const changed = await change(session, { current_password: PASSWORD, new_password: NEW_PASSWORD }).expect(
      200,
    );
    assert.ok(PasswordChangedView.is(changed.body));
    assert.deepEqual(changed.body, { sessions_ended: 2, tokens_revoked: 1, client_secrets_removed: 1 });
    assert.equal(changed.headers['cache-control'], 'no-store');

    for (const ended of [session, elsewhere])
      assert.equal((await current(ended).expect(401)).body.code, 'session_invalid');
    await current(colleague).expect(200);
    assert.deepEqual(await valueOf(introspectToken(h.deps)(token.body.id)), { active: false });
    const old = await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email: 'dev@acme.test', password: PASSWORD })
      .expect(401);
    assert.equal(old.body.code, 'invalid_credentials');
    await signIn('dev@acme.test', NEW_PASSWORD);
  });

  it('refuses a wrong current password with 401 naming current_password, changing nothing', async () => {
    const session = await signIn('other@acme.test');
    const wrong = await change(session, { current_password: 'not it', new_password: NEW_PASSWORD }).expect(
      401,
    );
    assert.match(String(wrong.headers['content-type']), /^application\/problem\+json/);
    assert.equal(wrong.body.code, 'invalid_password');
    assert.deepEqual(wrong.body.errors, [{ path: 'current_password', message: 'is wrong' }]);
    await current(session).expect(200);
    await signIn('other@acme.test');
  });

  it('refuses a new password that breaks a rule with 422 naming new_password', async () => {
    const session = await signIn('other@acme.test');
    for (const [candidate, message] of [
      ['short', 'must be at least 12 characters'],
      ['other@acme.test', 'must not be the e-mail address'],
      [PASSWORD, 'must differ from the current password'],
      [' '.repeat(12), 'must not be blank'],
    ]) {
      const weak = await change(session, { current_password: PASSWORD, new_password: candidate }).expect(422);
      assert.equal(weak.body.code, 'weak_password', candidate);
      assert.deepEqual(weak.body.errors, [{ path: 'new_password', message }]);
    }
    await current(session).expect(200);
  });

  it('names each missing or unknown field, and wants a session', async () => {
    const session = await signIn('other@acme.test');
    const missing = await change(session, { new_password: NEW_PASSWORD }).expect(422);
    assert.equal(missing.body.code, 'invalid_body');
    assert.deepEqual(
      (missing.body.errors as { path: string }[]).map((e) => e.path),
      ['current_password'],
    );
    const unknown = await change(session, {
      ...{ current_password: PASSWORD, new_password: NEW_PASSWORD },
      password: PASSWORD,
    }).expect(422);
    assert.deepEqual(
      (unknown.body.errors as { path: string; message: string }[]).map((e) => [e.path, e.message]),
      [['password', 'unknown field']],
    );
    const none = await request(h.callback)
      .post('/v1.1/sessions/current/password')
      .send({ current_password: PASSWORD, new_password: NEW_PASSWORD })
      .expect(401);
    assert.equal(none.body.code, 'session_required');
    await signIn('other@acme.test');
  });

  it('counts wrong current passwords with sign-in attempts: 429 with Retry-After, even for the right one', async () => {
    const session = await signIn('guess@acme.test');
    let last = 0;
    for (let i = 0; i < 8 && last !== 429; i++)
      last = (await change(session, { current_password: 'guess', new_password: NEW_PASSWORD })).status;
    assert.equal(last, 429);
    const blocked = await change(session, { current_password: PASSWORD, new_password: NEW_PASSWORD }).expect(
      429,
    );
    assert.equal(blocked.body.code, 'too_many_attempts');
    assert.match(String(blocked.headers['retry-after']), /^[1-9][0-9]*$/);
  });
});
