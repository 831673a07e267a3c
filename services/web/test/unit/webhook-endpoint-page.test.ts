import assert from 'node:assert/strict';
import { csrfTokenOf } from '../../src/cookies.js';
import { apiProblem, appWith, followShownOnce, SESSION } from '../support/fake-api.js';
import {
  BASE,
  callsOf,
  delivery,
  DELIVERY_ID,
  endpoint,
  EVENT_ID,
  get,
  HOOK_ID,
  listPage,
  post,
  SECRET,
  SIGNED_IN,
} from '../support/webhooks.js';

const ONE = `${BASE}/${HOOK_ID}`;
const PAGE = `/app/webhooks/${HOOK_ID}`;
const deliveries = (query: string) => `GET ${ONE}/deliveries?${query}`;
const SHOWN = {
  ...SIGNED_IN,
  [`GET ${ONE}`]: endpoint(),
  [deliveries('page=1&per_page=20')]: listPage([
    delivery(),
    delivery({
      id: 'd2',
      status: 'pending',
      attempts: 1,
      response_status: null,
      error: 'connect ECONNREFUSED',
    }),
  ]),
};

describe('web: one webhook endpoint (details, edit, rotate, delete, deliveries)', () => {
  it('shows the endpoint, its edit form filled in, Rotate secret, Delete and its recent deliveries', async () => {
    const res = await get(appWith(SHOWN), PAGE);
    assert.match(res.text, /<h1>Webhook endpoint <span class="hint">on Production<\/span><\/h1>/);
    assert.match(res.text, /<dt>URL<\/dt>\s*<dd><code>https:\/\/hooks.acme.example\/esign<\/code><\/dd>/);
    assert.match(res.text, /<dt>Alert e-mail<\/dt>\s*<dd>ops@acme.example<\/dd>/);
    assert.match(res.text, new RegExp(`<form method="post" action="${PAGE}" class="panel" novalidate>`));
    assert.match(
      res.text,
      /id="webhook-url"\s+name="url"\s+type="url"\s+value="https:\/\/hooks.acme.example\/esign"/,
    );
    assert.match(res.text, /name="event_request_completed"\s+value="on"[^>]*checked/);
    assert.doesNotMatch(res.text, /name="event_request_signed"\s+value="on"[^>]*checked/);
    assert.match(res.text, /id="webhook-enabled"\s+name="enabled"\s+value="true"[^>]*checked/);
    assert.match(res.text, />\nOrder system<\/textarea/);
    assert.match(res.text, new RegExp(`action="${PAGE}/rotate-secret"[\\s\\S]*?>Rotate secret</button>`));
    assert.match(res.text, /The old one keeps working for a day/);
    assert.match(res.text, new RegExp(`<a href="${PAGE}/delete">Delete this endpoint…</a>`));
    assert.doesNotMatch(res.text, /webhook-secret/);
    for (const form of res.text.match(/<form method="post"[\s\S]*?<\/form>/g) ?? [])
      assert.match(form, new RegExp(`name="_csrf" value="${csrfTokenOf(SESSION)}"`));

    assert.match(res.text, /<p role="status">\s*2\s+deliveries\s+in\s+the\s+last\s+30\s+days\./);
    const rows = res.text.split('<tr>').slice(2);
    assert.match(
      rows[0]!,
      new RegExp(
        `<a href="${PAGE}/deliveries/${DELIVERY_ID}"\\s*><time datetime="2030-01-01T00:00:10.000Z">`,
      ),
    );
    assert.match(
      rows[0]!,
      /<code>request.sent<\/code>[\s\S]*state-delivered">delivered<[\s\S]*<td>2<\/td>\s*<td>200<\/td>/,
    );
    assert.match(
      rows[1]!,
      /state-pending">pending<[\s\S]*<td>1<\/td>\s*<td><span class="hint">no answer<\/span><\/td>/,
    );
    assert.match(res.text, /<span>Page 1 of 1<\/span>/);
    assert.doesNotMatch(res.text, /rel="next"/);
  });

  it('filters the deliveries by status and pages through them', async () => {
    const app = appWith({
      ...SHOWN,
      [deliveries('page=2&per_page=20&status=failed')]: listPage([delivery({ status: 'failed' })], 2, 20, 45),
    });
    const res = await get(app, `${PAGE}?status=failed&page=2`);
    assert.match(res.text, /<option value="failed"\s+selected>failed<\/option>/);
    assert.match(res.text, /45\s+deliveries\s+failed\s+in\s+the\s+last\s+30\s+days/);
    assert.match(res.text, /<span>Page 2 of 3<\/span>/);
    assert.match(res.text, new RegExp(`href="${PAGE}\\?status=failed&amp;page=1#deliveries" rel="prev"`));
    assert.match(res.text, new RegExp(`href="${PAGE}\\?status=failed&amp;page=3#deliveries" rel="next"`));
    const bogus = await get(appWith(SHOWN), `${PAGE}?status=lost&page=x`);
    assert.match(
      bogus.text,
      /2\s+deliveries\s+in\s+the\s+last\s+30\s+days/,
      'an unknown status or page is ignored',
    );
  });

  it('saves the edit form as one PATCH of every field, then says so', async () => {
    const app = appWith({ ...SHOWN, [`PATCH ${ONE}`]: endpoint({ enabled: false }) });
    const res = await post(app, PAGE, {
      url: 'https://hooks.acme.example/v2 ',
      event_request_signed: 'on',
      event_bulk_send_completed: 'on',
      alert_email: ' dev@acme.example',
      description: '',
    }).expect(303);
    assert.equal(res.headers.location, `${PAGE}?done=saved`);
    assert.deepEqual(callsOf(app, 'PATCH'), [
      [
        ONE,
        {
          url: 'https://hooks.acme.example/v2',
          event_types: ['request.signed', 'bulk_send.completed'],
          alert_email: 'dev@acme.example',
          description: '',
          enabled: false,
        },
      ],
    ]);
    const after = await get(app, `${PAGE}?done=saved`);
    assert.match(after.text, /role="status">Saved\./);
  });

  it('shows a refusal of the edit beside its field, keeping what was typed', async () => {
    const app = appWith({
      ...SHOWN,
      [`PATCH ${ONE}`]: apiProblem(
        422,
        'invalid_body',
        'The webhook URL cannot be used.',
        'url',
        'resolves to a private address',
      ),
    });
    const res = await post(app, PAGE, {
      url: 'https://10.0.0.1/',
      event_request_sent: 'on',
      alert_email: 'ops@acme.example',
      enabled: 'true',
    }).expect(422);
    assert.match(res.text, /id="webhook-url-error">resolves to a private address</);
    assert.match(res.text, /value="https:\/\/10.0.0.1\/"\s+required aria-invalid="true"/);
    assert.match(
      res.text,
      /<dd><code>https:\/\/hooks.acme.example\/esign<\/code><\/dd>/,
      'the facts stay as saved',
    );
    const gone = appWith({
      ...SIGNED_IN,
      [`PATCH ${ONE}`]: apiProblem(404, 'not_found', 'No such webhook endpoint.'),
    });
    const missing = await post(gone, PAGE, { url: 'https://x.example' }).expect(404);
    assert.match(missing.text, /No such webhook endpoint\./);
  });

  it('rotates the secret and shows the new one once, saying the old one works for a day', async () => {
    const until = '2030-01-02T00:00:00.000Z';
    const app = appWith({
      ...SHOWN,
      [`GET ${ONE}`]: endpoint({ previous_secret_expires_at: until }),
      [`POST ${ONE}/rotate-secret`]: { ...endpoint({ previous_secret_expires_at: until }), secret: SECRET },
    });
    const answer = await post(app, `${PAGE}/rotate-secret`, {});
    const { shown: res } = await followShownOnce(app, answer, PAGE);
    assert.deepEqual(callsOf(app, 'POST'), [[`${ONE}/rotate-secret`, {}]]);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.text, /<h2 id="secret-heading">The new signing secret<\/h2>/);
    assert.match(res.text, new RegExp(`readonly\\s+value="${SECRET}"`));
    assert.match(res.text, /will not be shown again/);
    assert.match(
      res.text,
      /The old secret keeps working for a day, until <time datetime="2030-01-02T00:00:00.000Z">/,
    );
    assert.match(res.text, /<dt>Old secret valid until<\/dt>/);
  });

  it('asks before deleting, on a page of its own, then deletes with the anti-forgery token', async () => {
    const app = appWith({ ...SHOWN, [`DELETE ${ONE}`]: '' });
    const confirm = await get(app, `${PAGE}/delete`);
    assert.deepEqual(callsOf(app, 'DELETE'), [], 'showing the question deletes nothing');
    assert.match(confirm.text, /<h1>Delete the webhook endpoint\?<\/h1>/);
    assert.match(confirm.text, /its delivery log is deleted with it\. This cannot be undone\./);
    assert.match(
      confirm.text,
      new RegExp(
        `<form method="post" action="${PAGE}/delete" class="actions">\\s*<input type="hidden" name="_csrf" value="${csrfTokenOf(SESSION)}" />\\s*<button type="submit" class="danger">Delete endpoint</button>\\s*<a href="${PAGE}">Cancel, keep it</a>`,
      ),
    );
    await post(app, `${PAGE}/delete`, { _csrf: 'forged' }).expect(403);
    assert.deepEqual(callsOf(app, 'DELETE'), []);
    const done = await post(app, `${PAGE}/delete`, {}).expect(303);
    assert.equal(done.headers.location, '/app/webhooks?done=deleted');
    assert.deepEqual(callsOf(app, 'DELETE'), [[ONE, undefined]]);
  });

  it('shows one delivery with every attempt', async () => {
    const app = appWith({
      ...SIGNED_IN,
      [`GET ${ONE}/deliveries/${DELIVERY_ID}`]: {
        ...delivery(),
        attempt_history: [
          {
            attempt: 1,
            started_at: '2030-01-01T00:00:11.000Z',
            finished_at: '2030-01-01T00:00:21.000Z',
            outcome: 'retry',
            response_status: null,
            response_excerpt: null,
            error: 'timed out after 10 s',
            duration_ms: 10_002,
          },
          {
            attempt: 2,
            started_at: '2030-01-01T00:01:05.000Z',
            finished_at: '2030-01-01T00:01:05.000Z',
            outcome: 'delivered',
            response_status: 200,
            response_excerpt: '{"ok":true}',
            error: null,
            duration_ms: 42,
          },
        ],
      },
    });
    const res = await get(app, `${PAGE}/deliveries/${DELIVERY_ID}`);
    assert.match(res.text, /<title>Delivery of request.sent · E-sign<\/title>/);
    assert.match(res.text, /<h1>Delivery of <code>request.sent<\/code><\/h1>/);
    assert.match(
      res.text,
      /<dt>Status<\/dt>\s*<dd><span class="state state-delivered">delivered<\/span><\/dd>/,
    );
    assert.match(res.text, new RegExp(`<dt>Event id</dt>\\s*<dd><code>${EVENT_ID}</code>`));
    assert.match(res.text, /<div class="table-wrap" tabindex="0" role="region" aria-label="Attempts">/);
    assert.match(
      res.text,
      /<th scope="col">When<\/th>\s*<th scope="col">Outcome<\/th>\s*<th scope="col">Status<\/th>\s*<th scope="col">Duration<\/th>\s*<th scope="col">Error<\/th>\s*<th scope="col">Response excerpt<\/th>/,
    );
    const [first, second] = res.text.split('<tr>').slice(2);
    assert.match(
      first!,
      /<td>1<\/td>[\s\S]*state-pending"\s*>retry<[\s\S]*<td><span class="hint">none<\/span><\/td>\s*<td>10.0 s<\/td>\s*<td>timed out after 10 s<\/td>/,
    );
    assert.match(
      second!,
      /state-delivered"\s*>delivered<[\s\S]*<td>200<\/td>\s*<td>42 ms<\/td>[\s\S]*<code>\{&quot;ok&quot;:true\}<\/code>/,
    );
    assert.match(res.text, new RegExp(`<a href="${PAGE}#deliveries">Back to the endpoint’s deliveries</a>`));
  });

  it('shows another Site’s endpoint or delivery as not found', async () => {
    const app = appWith(SIGNED_IN);
    assert.match((await get(app, '/app/webhooks/nope', 404)).text, /<h1>Not found<\/h1>/);
    assert.match((await get(app, `${PAGE}/deliveries/nope`, 404)).text, /<h1>Not found<\/h1>/);
    assert.match((await get(app, `${PAGE}/delete`, 404)).text, /<h1>Not found<\/h1>/);
  });
});
