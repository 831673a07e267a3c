import assert from 'node:assert/strict';
import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { appWith, CURRENT, SESSION } from '../support/fake-api.js';

const cookieOf = (response: request.Response, name: string): string | undefined =>
  ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));

describe('web: the application middleware', () => {
  it('answers only /app and passes every other path on', async () => {
    const { callback } = appWith({});
    assert.equal((await request(callback).get('/v1.1/sites/1/requests')).text, 'the API');
    assert.equal((await request(callback).get('/application')).text, 'the API');
    const page = await request(callback).get('/app/sign-in').expect(200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.match(page.headers['content-security-policy'] as string, /script-src 'self'; style-src 'self'/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.text, /<label for="email">E-mail<\/label>/);
  });

  it('sets HttpOnly, SameSite=Lax cookies under /app, Secure when served over TLS', async () => {
    const plain = await request(appWith({}).callback).get('/app/sign-in');
    assert.equal(cookieOf(plain, 'esign_pre')?.includes('; Path=/app; HttpOnly; SameSite=Lax'), true);
    assert.equal(cookieOf(plain, 'esign_pre')?.includes('Secure'), false);
    const tls = await request(appWith({}, 'https://esign.example').callback).get('/app/sign-in');
    assert.equal(cookieOf(tls, 'esign_pre')?.endsWith('; Secure'), true);
  });

  it('refuses a sign-in form without its anti-forgery value, or from another site', async () => {
    const { callback, calls } = appWith({});
    await request(callback)
      .post('/app/sign-in')
      .type('form')
      .send({ email: 'a@b.c', password: 'x' })
      .expect(403);
    await request(callback)
      .post('/app/sign-in')
      .set('Cookie', 'esign_pre=abc')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send({ email: 'a@b.c', password: 'x', _csrf: 'abc' })
      .expect(403);
    assert.equal(calls.length, 0, 'nothing reached the API');
  });

  it('signs in through the API, keeps the session in a cookie and never follows `next` off the application', async () => {
    const { callback, calls } = appWith({
      'POST /v1.1/sessions': {
        session_token: SESSION,
        token_type: 'Bearer',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        user: CURRENT.user,
      },
    });
    const signedIn = await request(callback)
      .post('/app/sign-in')
      .set('Cookie', 'esign_pre=abc')
      .type('form')
      .send({ email: 'owner@acme.test', password: 'pw', _csrf: 'abc', next: '//evil.example/app/x' })
      .expect(303);
    assert.equal(signedIn.headers.location, '/app/requests');
    assert.match(
      cookieOf(signedIn, 'esign_session') ?? '',
      /^esign_session=ses_test-session-credential; Path=\/app; HttpOnly; SameSite=Lax; Max-Age=3\d{3}$/,
    );
    assert.deepEqual(calls[0]?.body, { email: 'owner@acme.test', password: 'pw' });
  });

  it('shows the back-off of repeated failures (429) in the words of the API', async () => {
    const { callback } = appWith({
      'POST /v1.1/sessions': {
        type: 'x',
        title: 'Too many attempts',
        status: 429,
        code: 'too_many_attempts',
        detail: 'Too many password attempts; try again in 30 s.',
      },
    });
    const page = await request(callback)
      .post('/app/sign-in')
      .set('Cookie', 'esign_pre=abc')
      .type('form')
      .send({ email: 'owner@acme.test', password: 'pw', _csrf: 'abc' })
      .expect(429);
    assert.match(page.text, /Please wait/);
    assert.match(page.text, /try again in 30 s/);
  });

  it('sends a signed-out visitor to sign in, and back afterwards', async () => {
    const response = await request(appWith({}).callback).get('/app/requests?state=sent').expect(302);
    assert.equal(response.headers.location, '/app/sign-in?next=%2Fapp%2Frequests%3Fstate%3Dsent');
  });

  it("wants the session's anti-forgery token on every state-changing form", async () => {
    const { callback, calls } = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'POST /v1.1/apps': {
        id: 'app-1',
        client_id: 'app-1',
        name: 'Export',
        has_client_secret: false,
        client_secret_created_at: null,
        created_at: '2030-01-01T00:00:00.000Z',
        disabled_at: null,
        callback_url: null,
      },
    });
    const cookie = `esign_session=${SESSION}`;
    await request(callback)
      .post('/app/apps')
      .set('Cookie', cookie)
      .type('form')
      .send({ name: 'Export' })
      .expect(403);
    await request(callback)
      .post('/app/apps')
      .set('Cookie', cookie)
      .type('form')
      .send({ name: 'Export', _csrf: csrfTokenOf('ses_another-session') })
      .expect(403);
    assert.equal(calls.filter((c) => c.path === '/v1.1/apps').length, 0);
    const created = await request(callback)
      .post('/app/apps')
      .set('Cookie', cookie)
      .set('Origin', 'http://127.0.0.1:8080')
      .type('form')
      .send({ name: 'Export', _csrf: csrfTokenOf(SESSION) })
      .expect(303);
    assert.equal(created.headers.location, '/app/apps/app-1');
    const call = calls.find((c) => c.path === '/v1.1/apps');
    assert.equal(call?.bearer, SESSION);
    assert.deepEqual(call?.body, { name: 'Export' });
  });
});
