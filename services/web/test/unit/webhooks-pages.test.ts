import assert from 'node:assert/strict';
import request from 'supertest';
import { WEBHOOK_EVENT_TYPES } from '@esign/contracts';
import { csrfTokenOf } from '../../src/cookies.js';
import {
  ACCOUNT_VIEW,
  apiProblem,
  appWith,
  CURRENT,
  followShownOnce,
  page,
  SESSION,
} from '../support/fake-api.js';
import {
  BASE,
  callsOf,
  COOKIE,
  endpoint,
  get,
  HOOK_ID,
  listPage,
  post,
  SECRET,
  SIGNED_IN,
} from '../support/webhooks.js';

const LIST = `GET ${BASE}?per_page=100`;
const DELIVERIES = `GET ${BASE}/${HOOK_ID}/deliveries?page=1&per_page=20`;
const CREATED = { ...endpoint({ description: '' }), secret: SECRET };
const FORM = {
  url: ' https://hooks.acme.example/esign ',
  event_request_sent: 'on',
  event_request_completed: 'on',
  alert_email: 'ops@acme.example',
  description: '',
};

describe('web: webhook endpoints of the current Site (list and New endpoint)', () => {
  it('is linked from the current Site on the Sites page, next to Branding, not from the header', async () => {
    const app = appWith({
      ...SIGNED_IN,
      'GET /v1.1/account': ACCOUNT_VIEW,
      'GET /v1.1/account/sites?per_page=100': page([]),
    });
    const res = await get(app, '/app/sites');
    assert.match(
      res.text,
      /<a href="\/app\/branding">Branding<\/a> ·\s*<a href="\/app\/webhooks">Webhooks<\/a>/,
    );
    assert.doesNotMatch(res.text.slice(0, res.text.indexOf('<main')), /webhooks/);
  });

  it('lists each endpoint: its URL (linking to it), events, state and description', async () => {
    const app = appWith({
      ...SIGNED_IN,
      [LIST]: page([
        endpoint(),
        endpoint({
          id: 'e2',
          url: 'https://old.acme.example/x',
          description: '',
          event_types: ['request.signed'],
          enabled: false,
          disabled_reason: 'failing',
        }),
      ]),
    });
    const res = await get(app, '/app/webhooks');
    assert.deepEqual(
      app.calls.filter((c) => c.path.startsWith(BASE)).map((c) => [c.method, c.path, c.bearer]),
      [['GET', `${BASE}?per_page=100`, 'at_test']],
      'the list of Site 3, with the session’s access token',
    );
    assert.match(res.text, /<title>Webhooks · E-sign<\/title>/);
    assert.match(res.text, /<h1>Webhooks <span class="hint">on Production<\/span><\/h1>/);
    assert.match(res.text, /<a class="button" href="\/app\/webhooks\/new">New endpoint<\/a>/);
    assert.match(res.text, /<caption class="visually-hidden">Webhook endpoints of Production<\/caption>/);
    const [first, second] = res.text.split('<tr>').slice(2);
    assert.match(
      first!,
      new RegExp(`<a href="/app/webhooks/${HOOK_ID}"><code>https://hooks.acme.example/esign</code></a>`),
    );
    assert.match(first!, /<li><code>request.sent<\/code><\/li>\s*<li><code>request.completed<\/code><\/li>/);
    assert.match(first!, /<span class="state state-active">enabled<\/span>/);
    assert.match(first!, /<td class="wide">Order system<\/td>/);
    assert.match(second!, /<span class="state state-disabled">disabled<\/span>/);
    assert.match(second!, /turned off: every delivery failed for 3 days/);
    assert.match(second!, /<span class="hint">none<\/span>/);
  });

  it('says so when the Site has none, and the deletion that led there', async () => {
    const res = await get(appWith({ ...SIGNED_IN, [LIST]: page([]) }), '/app/webhooks?done=deleted');
    assert.match(res.text, /This Site has no webhook endpoints yet\./);
    assert.match(res.text, /role="status">The endpoint was deleted, with its delivery log\./);
  });

  it('offers every event type with its description, none ticked, and the user’s e-mail for alerts', async () => {
    const res = await get(appWith(SIGNED_IN), '/app/webhooks/new');
    assert.match(res.text, /<form method="post" action="\/app\/webhooks\/new" class="panel" novalidate>/);
    assert.match(res.text, new RegExp(`name="_csrf" value="${csrfTokenOf(SESSION)}"`));
    assert.match(res.text, /<label for="webhook-url">URL<\/label>/);
    assert.match(res.text, /<legend>Events to send<\/legend>/);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const id = `event-${type.replace(/[._]/g, '-')}`;
      assert.match(
        res.text,
        new RegExp(
          `id="${id}"\\s+name="event_${type.replace('.', '_')}"\\s+value="on"\\s+aria-describedby="${id}-hint"\\s*/>\\s*<label for="${id}"><code>${type}</code></label>\\s*<p class="hint" id="${id}-hint">[^<]+</p>`,
        ),
      );
    }
    assert.doesNotMatch(res.text, / checked/);
    assert.match(res.text, /A Request was sent: its signers’ links are live\./);
    assert.match(res.text, /id="alert-email"\s+name="alert_email"\s+type="email"\s+value="owner@acme.test"/);
    assert.match(res.text, /<label for="webhook-description">Description \(optional\)<\/label>/);
    assert.doesNotMatch(res.text, /id="webhook-enabled"/, 'a new endpoint starts enabled');
  });

  it('creates the endpoint and shows its secret once, read-only with a copy button, and how to verify', async () => {
    const app = appWith({
      ...SIGNED_IN,
      [`POST ${BASE}`]: CREATED,
      [`GET ${BASE}/${HOOK_ID}`]: endpoint({ description: '' }),
      [DELIVERIES]: listPage([]),
    });
    const answer = await post(app, '/app/webhooks/new', FORM);
    assert.doesNotMatch(
      JSON.stringify(answer.headers) + answer.text,
      /whsec_/,
      'nothing readable in the answer',
    );
    const { shown: res } = await followShownOnce(app, answer, `/app/webhooks/${HOOK_ID}`);
    assert.deepEqual(callsOf(app, 'POST'), [
      [
        BASE,
        {
          url: 'https://hooks.acme.example/esign',
          event_types: ['request.sent', 'request.completed'],
          alert_email: 'ops@acme.example',
        },
      ],
    ]);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.text, /<h2 id="secret-heading">The endpoint’s signing secret<\/h2>/);
    assert.match(res.text, /it is shown this once and will not be shown again/);
    assert.match(res.text, new RegExp(`id="webhook-secret"\\s+type="text"\\s+readonly\\s+value="${SECRET}"`));
    assert.match(res.text, /<button type="button" class="secondary" data-copy="webhook-secret" hidden>Copy/);
    assert.match(res.text, /Esign-Signature: t=…,v1=…/);
    assert.match(res.text, /“Verifying a delivery”/);
    assert.equal(res.text.split(SECRET).length, 2, 'the secret is on the page once');
    assert.match(res.text, /<dd><code>https:\/\/hooks.acme.example\/esign<\/code><\/dd>/);
    assert.doesNotMatch(res.text, /old secret keeps working/);

    const later = await get(app, `/app/webhooks/${HOOK_ID}`);
    assert.doesNotMatch(
      later.text,
      /webhook-secret|whsec_/,
      'and never again: a reload shows the page alone',
    );
    assert.equal(callsOf(app, 'POST').length, 1, 'and makes no second endpoint');
  });

  it('shows each refusal beside its field, keeping everything typed, with a summary linking to them', async () => {
    const app = appWith({
      ...SIGNED_IN,
      [`POST ${BASE}`]: {
        ...apiProblem(422, 'invalid_body', 'The request body is invalid.'),
        errors: [
          { path: 'url', message: 'must be an https URL' },
          { path: 'alert_email', message: 'must be an e-mail address' },
        ],
      },
    });
    const res = await post(app, '/app/webhooks/new', {
      ...FORM,
      url: 'http://hooks.acme.example',
      alert_email: 'ops',
      description: 'Orders <b>',
    }).expect(422);
    assert.match(res.text, /role="alert"[\s\S]*?<a href="#webhook-url">Url must be an https URL<\/a>/);
    assert.match(res.text, /<a href="#alert-email">Alert email must be an e-mail address<\/a>/);
    assert.match(
      res.text,
      /<p class="error" id="webhook-url-error">must be an https URL<\/p>\s*<input\s+id="webhook-url"\s+name="url"\s+type="url"\s+value="http:\/\/hooks.acme.example"\s+required aria-invalid="true" aria-describedby="webhook-url-hint webhook-url-error"/,
    );
    assert.match(res.text, /id="alert-email-error">must be an e-mail address</);
    assert.match(res.text, /value="ops"\s+autocomplete="email" required aria-invalid="true"/);
    assert.match(res.text, /name="event_request_sent"\s+value="on"[^>]*checked/);
    assert.match(res.text, /name="event_request_completed"\s+value="on"[^>]*checked/);
    assert.doesNotMatch(res.text, /name="event_request_signed"\s+value="on"[^>]*checked/);
    assert.match(res.text, />\nOrders &lt;b&gt;<\/textarea/);
  });

  it('names a missing event type beside the events, and shows the 409 and 503 in the summary', async () => {
    const none = appWith({
      ...SIGNED_IN,
      [`POST ${BASE}`]: apiProblem(
        422,
        'invalid_body',
        'Invalid.',
        'event_types',
        'must contain at least one event type',
      ),
    });
    const res = await post(none, '/app/webhooks/new', {
      url: 'https://x.example',
      alert_email: 'a@b.example',
    }).expect(422);
    assert.deepEqual((callsOf(none, 'POST')[0]![1] as { event_types: unknown }).event_types, []);
    assert.match(
      res.text,
      /<fieldset class="checks" id="event-types"\s+aria-describedby="event-types-error">/,
    );
    assert.match(
      res.text,
      /<p class="error" id="event-types-error">must contain at least one event type<\/p>/,
    );
    assert.match(res.text, /<a href="#event-types">Event types must contain at least one event type<\/a>/);
    for (const [status, code, detail] of [
      [409, 'too_many_webhook_endpoints', 'A site can have at most 20 webhook endpoints; delete one first.'],
      [
        503,
        'service_unavailable',
        'The message broker is unavailable, so the endpoint was not created; try again shortly.',
      ],
    ] as const) {
      const refused = await post(
        appWith({ ...SIGNED_IN, [`POST ${BASE}`]: apiProblem(status, code, detail) }),
        '/app/webhooks/new',
        FORM,
      ).expect(status);
      assert.match(
        refused.text,
        new RegExp(
          `role="alert"[^>]*>\\s*<h2>There is a problem</h2>\\s*<p>${detail.replace(/[.;]/g, '\\$&')}</p>`,
        ),
      );
      assert.match(refused.text, /value="https:\/\/hooks.acme.example\/esign"/);
    }
  });

  it('refuses a form without the anti-forgery token, creating nothing', async () => {
    const app = appWith({ ...SIGNED_IN, [`POST ${BASE}`]: CREATED });
    await request(app.callback)
      .post('/app/webhooks/new')
      .set('Cookie', COOKIE)
      .type('form')
      .send(FORM)
      .expect(403);
    assert.deepEqual(callsOf(app, 'POST'), []);
  });

  it('asks a user on no Site to be added to one', async () => {
    const app = appWith({ 'GET /v1.1/sessions/current': { ...CURRENT, sites: [] } });
    for (const path of ['/app/webhooks', '/app/webhooks/new'])
      assert.match((await get(app, path)).text, /<h1>No Site yet<\/h1>/);
  });
});
