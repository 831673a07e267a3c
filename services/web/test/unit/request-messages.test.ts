import assert from 'node:assert/strict';
import request from 'supertest';
import { appWith, CURRENT, REQUEST_ID as ID, requestView, SESSION } from '../support/fake-api.js';

const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
const MESSAGES = `GET /v1.1/requests/${ID}/messages?per_page=100`;

const kept = {
  id: 'm1',
  request_id: ID,
  event_type: 'request.sent',
  signer_id: 'ann@example.com',
  signer_ref: 'ref-ann',
  channel: 'email',
  to: 'ann@example.com',
  subject: 'Please sign: <Lease>',
  body: 'Hello Ann,\nplease sign.',
  html: '<p>Hello Ann</p>',
  execution_url: 'http://127.0.0.1:8080/sign/x',
  created_at: '2030-01-01T00:00:00.000Z',
};

describe('web: the messages a test-mode Request kept', () => {
  const page = (answers: Record<string, unknown>, testMode = true) => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/requests/${ID}`]: requestView('sent', undefined, testMode),
      ...answers,
    });
    return {
      app,
      get: () => request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200),
    };
  };

  it('lists them on the Request’s page, escaped, with their text', async () => {
    const { get } = page({
      [MESSAGES]: { data: [kept], page: 1, per_page: 100, count: 1, total_count: 1, has_more: false },
    });
    const res = await get();
    assert.match(res.text, /<h2>Messages kept \(test mode\)<\/h2>/);
    assert.match(res.text, /<summary>Please sign: &lt;Lease&gt;<\/summary>/);
    assert.match(res.text, /<pre class="message-body">Hello Ann,\nplease sign\.<\/pre>/);
    assert.match(res.text, /<td>ann@example\.com<\/td>/);
  });

  it('says when there are none yet, and when they cannot be read, and still shows the Request', async () => {
    const none = await page({
      [MESSAGES]: { data: [], page: 1, per_page: 100, count: 0, total_count: 0, has_more: false },
    }).get();
    assert.match(none.text, /None yet: they are kept from the moment the Request is sent/);
    const down = await page({
      [MESSAGES]: { type: 'x', title: 'Service unavailable', status: 503, code: 'upstream_unavailable' },
    }).get();
    assert.match(down.text, /The messages cannot be shown: Service unavailable/);
    assert.match(down.text, /<h2>Signers<\/h2>/);
  });

  it('asks for none on a Request that is not in test mode', async () => {
    const { app, get } = page({}, false);
    const res = await get();
    assert.doesNotMatch(res.text, /Messages kept/);
    assert.equal(app.calls.filter((c) => c.path.includes('/messages')).length, 0);
  });
});
