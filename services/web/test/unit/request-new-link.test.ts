import assert from 'node:assert/strict';
import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { appWith, CURRENT, REQUEST_ID as ID, requestView, SESSION } from '../support/fake-api.js';

const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
const REISSUE = `POST /v1.1/requests/${ID}/signers/ann%40example.com/execution_url`;

describe('web: a new Execution URL for one signer', () => {
  const answers = (reissued: unknown) => ({
    'GET /v1.1/sessions/current': CURRENT,
    [`GET /v1.1/requests/${ID}`]: requestView('sent'),
    [REISSUE]: reissued,
  });
  const post = (app: ReturnType<typeof appWith>, fields: Record<string, string>) =>
    request(app.callback)
      .post(`/app/requests/${ID}/new-link`)
      .set('Cookie', COOKIE)
      .set('Origin', 'http://127.0.0.1:8080')
      .type('form')
      .send({ _csrf: csrfTokenOf(SESSION), signer_id: 'ann@example.com', ...fields });

  it('offers it, with its own Idempotency-Key, to a signer of a sent Request who has not signed', async () => {
    const app = appWith(answers(requestView('sent')));
    const page = await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200);
    assert.match(page.text, /aria-label="New Execution URL for ann@example.com"/);
    assert.match(page.text, /<label for="notify-0">Send it to them<\/label>/);
    assert.match(page.text, /name="idempotency_key" value="[0-9a-f-]{36}"/);
    const done = await request(
      appWith({ ...answers(undefined), [`GET /v1.1/requests/${ID}`]: requestView('completed') }).callback,
    )
      .get(`/app/requests/${ID}`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.doesNotMatch(done.text, /New link/, 'not once the signer has signed');
  });

  it('asks the API for it, sent to the signer when ticked, and says what happened', async () => {
    const app = appWith(answers(requestView('sent', 'http://127.0.0.1:8080/sign/new')));
    const sent = await post(app, { notify: 'true', idempotency_key: 'key-1' }).expect(303);
    assert.equal(sent.headers.location, `/app/requests/${ID}?done=new-link-sent`);
    const quiet = await post(app, { idempotency_key: 'key-2' }).expect(303);
    assert.equal(quiet.headers.location, `/app/requests/${ID}?done=new-link`);
    const calls = app.calls.filter((c) => `${c.method} ${c.path}` === REISSUE);
    assert.deepEqual(
      calls.map((c) => [c.body, c.idempotencyKey, c.bearer]),
      [
        [{ notify: true }, 'key-1', 'at_test'],
        [{ notify: false }, 'key-2', 'at_test'],
      ],
    );
    const shown = await request(app.callback)
      .get(`/app/requests/${ID}?done=new-link-sent`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(shown.text, /The signer has a new Execution URL \(below\), and it is being sent to them/);
  });

  it("shows the API's refusal on the Request's page", async () => {
    const app = appWith(
      answers({
        type: 'x',
        title: 'Conflict',
        status: 409,
        code: 'invalid_state',
        detail: 'The signer has signed already.',
      }),
    );
    const res = await post(app, { notify: 'true' }).expect(409);
    assert.match(res.text, /The signer has signed already\./);
  });
});
