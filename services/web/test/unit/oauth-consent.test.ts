import assert from 'node:assert/strict';
import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { appWith, CURRENT, SESSION } from '../support/fake-api.js';

const QUERY =
  'response_type=code&client_id=c1&redirect_uri=https%3A%2F%2Fcrm.example%2Fcb&state=s1' +
  '&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256';
const CONSENT = {
  client_id: 'c1',
  app_name: 'CRM <b>',
  owner_account_name: 'CRM Vendor',
  redirect_uri: 'https://crm.example/cb',
  sites: [
    { id: 3, name: 'Production' },
    { id: 4, name: 'HR' },
  ],
};
const cookie = `esign_session=${SESSION}`;

/** The consent page of the authorization-code grant, against a fake API (issue 24). */
describe('web: the OAuth consent page', () => {
  it('sends a signed-out visitor to sign in and back to the same request', async () => {
    const { callback } = appWith({});
    const response = await request(callback).get(`/app/oauth/authorize?${QUERY}`).expect(302);
    const next = new URL(response.headers.location as string, 'http://x').searchParams.get('next');
    assert.equal(next, `/app/oauth/authorize?${QUERY}`);
  });

  it('names the app (escaped), its maker and the Sites, and lets forms leave only for the callback', async () => {
    const { callback, calls } = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/oauth/consent?${QUERY}`]: CONSENT,
    });
    const page = await request(callback)
      .get(`/app/oauth/authorize?${QUERY}`)
      .set('Cookie', cookie)
      .expect(200);
    assert.match(page.text, /Allow CRM &lt;b&gt; to act for you\?/);
    assert.match(page.text, /CRM Vendor/);
    assert.match(page.text, /name="site_3" value="on" checked/);
    assert.match(page.text, /name="code_challenge" value="E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"/);
    assert.match(
      page.headers['content-security-policy'] as string,
      /form-action 'self' https:\/\/crm\.example;/,
    );
    assert.equal(calls.find((c) => c.path.startsWith('/v1.1/oauth/consent'))?.bearer, SESSION);
  });

  it('shows a request auth refuses on our page, and follows auth to the callback otherwise', async () => {
    const refused = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/oauth/consent?${QUERY}`]: {
        type: 'x',
        title: 'Invalid authorization request',
        status: 400,
        code: 'invalid_authorization_request',
        detail: "The app's request cannot be answered: redirect_uri is not the app's callback URL.",
      },
    });
    const page = await request(refused.callback)
      .get(`/app/oauth/authorize?${QUERY}`)
      .set('Cookie', cookie)
      .expect(400);
    assert.match(page.text, /redirect_uri is not the app&#39;s callback URL/);
    assert.equal(page.headers.location, undefined);
    const redirected = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/oauth/consent?${QUERY}`]: {
        redirect_to: 'https://crm.example/cb?error=invalid_request&state=s1',
      },
    });
    const answer = await request(redirected.callback)
      .get(`/app/oauth/authorize?${QUERY}`)
      .set('Cookie', cookie)
      .expect(303);
    assert.equal(answer.headers.location, 'https://crm.example/cb?error=invalid_request&state=s1');
  });

  it('posts the decision with the ticked Sites and sends the browser where auth says', async () => {
    const { callback, calls } = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'POST /v1.1/oauth/consent': { redirect_to: 'https://crm.example/cb?code=eac_x&state=s1' },
    });
    const fields = Object.fromEntries(new URLSearchParams(QUERY));
    await request(callback)
      .post('/app/oauth/authorize')
      .set('Cookie', cookie)
      .type('form')
      .send({ ...fields, site_4: 'on', decision: 'allow' })
      .expect(403);
    const answer = await request(callback)
      .post('/app/oauth/authorize')
      .set('Cookie', cookie)
      .set('Origin', 'http://127.0.0.1:8080')
      .type('form')
      .send({ ...fields, site_4: 'on', decision: 'allow', _csrf: csrfTokenOf(SESSION) })
      .expect(303);
    assert.equal(answer.headers.location, 'https://crm.example/cb?code=eac_x&state=s1');
    const posted = calls.find((c) => c.method === 'POST' && c.path === '/v1.1/oauth/consent');
    assert.deepEqual(posted?.body, { request: fields, decision: 'allow', site_ids: [4] });
  });
});
