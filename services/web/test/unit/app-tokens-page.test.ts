import assert from 'node:assert/strict';
import request from 'supertest';
import {
  apiProblem,
  appWith,
  COOKIE,
  CSRF,
  CURRENT,
  followShownOnce,
  page,
  SESSION,
} from '../support/fake-api.js';

const AT = '2030-01-01T00:00:00.000Z';
const APP = {
  id: 'app-1',
  client_id: 'app-1',
  name: 'Nightly export',
  has_client_secret: false,
  client_secret_created_at: null,
  created_at: AT,
  disabled_at: null,
  callback_url: null,
};
const TOKEN = {
  id: 'tok-1',
  app_id: 'app-1',
  name: 'prod',
  origin: 'self_service',
  state: 'active',
  created_at: AT,
  expires_at: '2031-01-01T00:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
  site_ids: null,
  test_mode_only: false,
};
const ACCESS_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl';
const PAGE = '/app/apps/app-1';

const appOf = (
  created: unknown = { ...TOKEN, access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600 },
) =>
  appWith({
    'GET /v1.1/sessions/current': CURRENT,
    'GET /v1.1/apps/app-1': APP,
    'GET /v1.1/apps/app-2': { ...APP, id: 'app-2', client_id: 'app-2' },
    'GET /v1.1/apps/app-1/tokens?per_page=100': page([TOKEN]),
    'GET /v1.1/apps/app-2/tokens?per_page=100': page([]),
    'POST /v1.1/apps/app-1/tokens': created,
  });

const createToken = (app: ReturnType<typeof appWith>) =>
  request(app.callback)
    .post(`${PAGE}/tokens`)
    .set('Cookie', COOKIE)
    .type('form')
    .send({ _csrf: CSRF, name: 'prod', password: 'correct horse' });

const withSealed = (app: ReturnType<typeof appWith>, path: string, sealed: string, session = SESSION) =>
  request(app.callback)
    .get(path)
    .set('Cookie', `esign_session=${session}; esign_api=at_test; esign_shown=${sealed}`)
    .expect(200);

const tokenField = /id="access-token"\s+type="text"\s+readonly/;

describe('web: an app’s access token, shown once on a page a reload cannot post again (ADR 3210)', () => {
  it('answers the form with a redirect to the app, whose page shows the token once', async () => {
    const app = appOf();
    const answer = await createToken(app);
    assert.doesNotMatch(
      JSON.stringify(answer.headers) + answer.text,
      /eyJzdWIi/,
      'nothing readable in the answer',
    );
    const { shown } = await followShownOnce(app, answer, PAGE);
    assert.equal(shown.headers['cache-control'], 'no-store');
    assert.match(shown.text, /<h2 id="new-token">Your new access token<\/h2>/);
    assert.match(shown.text, new RegExp(`${tokenField.source}\\s+value="${ACCESS_TOKEN}"`));
    assert.equal(shown.text.split(ACCESS_TOKEN).length, 2, 'the token is on the page once');

    const reloaded = await request(app.callback).get(PAGE).set('Cookie', COOKIE).expect(200);
    assert.doesNotMatch(reloaded.text, tokenField, 'a reload shows the page alone');
    const posts = app.calls.filter((c) => c.method === 'POST');
    assert.deepEqual(
      posts.map((c) => [c.path, c.body]),
      [['/v1.1/apps/app-1/tokens', { password: 'correct horse', name: 'prod' }]],
    );
  });

  it('keeps a refused form on its page, as typed, with no cookie', async () => {
    const app = appOf(apiProblem(403, 'invalid_password', 'The password is wrong.'));
    const answer = await createToken(app).expect(403);
    assert.equal(answer.headers['set-cookie'], undefined);
    assert.match(answer.text, /The password is wrong\./);
    assert.match(answer.text, /id="token-name"\s+name="name"\s+type="text"\s+value="prod"/);
  });

  it('shows nothing from a cookie of another session, another page, or one tampered with, and clears it', async () => {
    const app = appOf();
    const { sealed } = await followShownOnce(app, await createToken(app), PAGE);

    const other = await withSealed(app, PAGE, sealed, 'ses_another-session');
    assert.doesNotMatch(other.text, tokenField, 'another session cannot open it');
    assert.ok(String(other.headers['set-cookie']).includes(`esign_shown=; Path=${PAGE};`));

    const elsewhere = await withSealed(app, '/app/apps/app-2', sealed);
    assert.doesNotMatch(elsewhere.text, tokenField, 'it opens only at the page it was sealed for');

    const parts = sealed.split('.');
    const ciphertext = parts[3]!;
    parts[3] = `${ciphertext[0] === 'A' ? 'B' : 'A'}${ciphertext.slice(1)}`;
    const tampered = await withSealed(app, PAGE, parts.join('.'));
    assert.doesNotMatch(tampered.text, tokenField, 'a changed byte fails its tag');
    assert.doesNotMatch(tampered.text, /eyJzdWIi/);

    const again = await withSealed(app, PAGE, sealed);
    assert.match(
      again.text,
      tokenField,
      'the right session at the right page still opens it (the test is sound)',
    );
  });
});
