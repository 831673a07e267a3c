import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, callsOf, COOKIE, CSRF, CURRENT, ORIGIN, page } from '../support/fake-api.js';

const AT = '2030-01-01T00:00:00.000Z';
const ANN = {
  signer_id: 'client-1',
  email: 'ann@example.com',
  mobile_number: null,
  created_at: AT,
  updated_at: AT,
};
const BOB = {
  signer_id: 'client-2',
  email: null,
  mobile_number: '12025550143',
  created_at: AT,
  updated_at: AT,
};
const LIST = 'GET /v1.1/sites/3/signers?page=1&per_page=20';
const PUT = 'PUT /v1.1/sites/3/signers/client-1';

/** `/app/signers` (ADR 3200) over the fake API: the Site's signers, searched, each correctable. */
describe('web: the Site’s signers page', () => {
  const answers = (more: Record<string, unknown> = {}) => ({
    'GET /v1.1/sessions/current': CURRENT,
    [LIST]: page([ANN, BOB]),
    ...more,
  });
  const show = async (app: ReturnType<typeof appWith>, path = '/app/signers') =>
    (await request(app.callback).get(path).set('Cookie', COOKIE).expect(200)).text;
  /** A form of the page as the browser posts it to `/app/signers/<action>`, with `base` under `fields`. */
  const postTo =
    (action: string, base: Record<string, string>) =>
    (app: ReturnType<typeof appWith>, fields: Record<string, string>) =>
      request(app.callback)
        .post(`/app/signers/${action}`)
        .set('Cookie', COOKIE)
        .set('Origin', ORIGIN)
        .type('form')
        .send({ _csrf: CSRF, ...base, ...fields });
  const post = postTo('correct', {
    signer_id: 'client-1',
    site_id: '3',
    was_email: 'ann@example.com',
    was_mobile: '',
  });

  it('lists the Site’s signers with their details, each with Correct contact (address and number only)', async () => {
    const text = await show(appWith(answers()));
    assert.match(text, /<h1>Signers <span class="hint">on Production<\/span><\/h1>/);
    assert.match(text, /2 signers\./);
    assert.match(text, /<code>client-1<\/code>[^]*ann@example.com/);
    assert.match(text, /<code>client-2<\/code>[^]*12025550143/);
    assert.match(text, /action="\/app\/signers\/correct"/);
    assert.match(text, /name="site_id" value="3"/);
    assert.doesNotMatch(text, /name="send_to_email"|name="notify"/);
    assert.match(text, /role="search"\s+aria-label="Search signers"/);
  });

  it('searches through the API, keeping the search in the form and the pages', async () => {
    const app = appWith(answers({ 'GET /v1.1/sites/3/signers?page=1&per_page=20&q=ann%40': page([ANN]) }));
    const text = await show(app, '/app/signers?q=%20ann%40%20');
    assert.match(text, /1 signer matching “ann@”\./);
    assert.match(text, /id="q" name="q" type="search" maxlength="255" value="ann@"/);
    assert.match(text, /name="q" value="ann@"/, 'the correction comes back to the same search');
  });

  it('puts the typed details on the Site the page showed, and says whether anything changed', async () => {
    const app = appWith(answers({ [PUT]: { ...ANN, email: 'ann.lee@example.com' } }));
    const moved = await post(app, {
      email: 'ann.lee@example.com',
      mobile_number: '',
      q: 'ann',
      page: '2',
    }).expect(303);
    assert.equal(moved.headers.location, '/app/signers?done=corrected&q=ann&page=2');
    const same = await post(appWith(answers({ [PUT]: ANN })), { email: 'ann@example.com' }).expect(303);
    assert.equal(same.headers.location, '/app/signers?done=contact-same&page=1');
    assert.deepEqual(callsOf(app, 'PUT'), [
      ['/v1.1/sites/3/signers/client-1', { signer: { email: 'ann.lee@example.com' } }],
    ]);
    const notice = await show(
      appWith(answers({ 'GET /v1.1/sites/3/signers?page=1&per_page=20&q=ann': page([ANN]) })),
      '/app/signers?done=corrected&q=ann',
    );
    assert.match(notice, /role="status">The signer’s contact details were corrected/);
  });

  it('shows a refusal beside its field in the signer’s row, as typed, and refuses a form without its Site', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The request body is invalid.', {
      'signer.email': 'must be an e-mail address',
    });
    const res = await post(appWith(answers({ [PUT]: refused })), { email: 'not an address' }).expect(422);
    assert.match(res.text, /<details class="contact"\s+open>/);
    assert.match(res.text, /id="contact-0-email-error">must be an e-mail address</);
    assert.match(res.text, /value="not an address"\s+aria-invalid="true"/);
    assert.match(res.text, /The contact details of client-1 were not corrected\./);
    const app = appWith(answers());
    const lost = await post(app, { site_id: '', email: 'a@example.com' }).expect(400);
    assert.match(lost.text, /did not say which Site/);
    assert.deepEqual(
      app.calls.filter((c) => c.method === 'PUT'),
      [],
    );
  });

  it('links each signer to the Requests naming them, which the Requests page lists with the filter kept', async () => {
    const text = await show(appWith(answers()));
    assert.match(text, /<a\s+href="\/app\/requests\?signer_id=client-1"\s*><code>client-1<\/code>/);
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'GET /v1.1/sites/3/requests?page=1&per_page=20&state=draft&signer_id=client+1': page([]),
    });
    const requests = await show(app, '/app/requests?state=draft&signer_id=client%201');
    assert.match(requests, /0\s+Requests in state draft naming signer <code>client 1<\/code>\./);
    assert.match(
      requests,
      /<input type="hidden" name="signer_id" value="client 1" \/>/,
      'kept by the state filter',
    );
    assert.match(requests, /<a href="\/app\/requests\?state=draft">Show every signer’s<\/a>/);
  });

  it('deletes a signer on the Site the page showed, and shows a refusal on the page', async () => {
    const remove = postTo('delete', { signer_id: 'client-2', site_id: '3', q: 'cl', page: '1' });
    const DELETE = 'DELETE /v1.1/sites/3/signers/client-2';
    const text = await show(appWith(answers()));
    assert.match(text, /action="\/app\/signers\/delete"[^]*aria-label="Delete the signer client-2"/);
    const app = appWith(answers({ [DELETE]: '' }));
    const gone = await remove(app, {}).expect(303);
    assert.equal(gone.headers.location, '/app/signers?done=deleted&q=cl&page=1');
    assert.deepEqual(
      app.calls.filter((c) => c.method === 'DELETE').map((c) => c.path),
      ['/v1.1/sites/3/signers/client-2'],
    );
    const inUse = apiProblem(
      409,
      'signer_in_use',
      'A Request of this Site names the signer, so it is kept with it.',
    );
    const kept = await remove(
      appWith(answers({ [DELETE]: inUse, 'GET /v1.1/sites/3/signers?page=1&per_page=20&q=cl': page([BOB]) })),
      {},
    ).expect(409);
    assert.match(kept.text, /role="alert"[^]*A Request of this Site names the signer/);
  });

  it('removes a detail the person cleared, and calls nothing when nothing changed', async () => {
    const app = appWith(answers({ 'PUT /v1.1/sites/3/signers/client-2': { ...BOB, mobile_number: null } }));
    const removed = await post(app, {
      signer_id: 'client-2',
      was_email: '',
      was_mobile: '12025550143',
      email: '',
      mobile_number: '',
    }).expect(303);
    assert.equal(removed.headers.location, '/app/signers?done=corrected&page=1');
    const untouched = await post(app, { email: 'ann@example.com', mobile_number: '' }).expect(303);
    assert.equal(untouched.headers.location, '/app/signers?done=contact-same&page=1');
    assert.deepEqual(callsOf(app, 'PUT'), [
      ['/v1.1/sites/3/signers/client-2', { signer: { mobile_number: null } }],
    ]);
    const page = await show(appWith(answers()));
    assert.match(page, /Clear it to remove the number\./);
  });
});
