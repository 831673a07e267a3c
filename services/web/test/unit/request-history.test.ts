import assert from 'node:assert/strict';
import request from 'supertest';
import {
  apiProblem,
  appWith,
  COOKIE,
  CURRENT,
  page,
  REQUEST_ID as ID,
  requestView,
} from '../support/fake-api.js';

const EVENTS = `/v1.1/requests/${ID}/events`;
/** The one call the page makes: the latest 100, newest first. */
const FIRST = `GET ${EVENTS}?order=desc&per_page=100`;
const AT = '2030-01-02T10:00:00.000Z';

/** An entry of the history as the API answers it: a webhook event's body. */
const event = (type: string, data: Record<string, unknown>, n = 0) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type,
  created_at: new Date(Date.parse(AT) + n * 60_000).toISOString(),
  site_id: 3,
  data: { request_id: ID, ...data },
});

/** A signer as `request.sent` and `request.reminded` list them. */
const listed = (signerId: string, ref: string) => ({
  signer_id: signerId,
  signer_ref: ref,
  email: signerId,
  mobile_number: null,
  send_to: { email: true, mobile_number: false },
});

/** The Request of two signers, ann (ref-ann) and bob (ref-bob). */
const TWO = (() => {
  const view = requestView('sent');
  const ann = view.signers[0]!;
  return {
    ...view,
    signers: [ann, { ...ann, signer_id: 'bob@example.com', signer_ref: 'ref-bob', email: 'bob@example.com' }],
  };
})();

const show = async (answers: Record<string, unknown>, view: unknown = TWO) => {
  const app = appWith({
    'GET /v1.1/sessions/current': CURRENT,
    [`GET /v1.1/requests/${ID}`]: view,
    ...answers,
  });
  const res = await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200);
  const history = /<section aria-labelledby="history-title">[^]*?<\/section>/.exec(res.text)?.[0] ?? '';
  return { text: res.text, history, calls: app.calls.filter((c) => c.path.startsWith(EVENTS)) };
};

/** The "What happened" cell of each row of the History table. */
const happenings = (history: string) =>
  [...history.matchAll(/<tr>\s*<td><time[^]*?<\/time><\/td>\s*<td>([^]*?)<\/td>/g)].map((m) =>
    m[1]!.replace(/\s+/g, ' ').trim(),
  );

describe('web: a Request’s History on its page', () => {
  it('says what happened, oldest first, with the signer each event names', async () => {
    const entries = [
      event('request.sent', { signers: [listed('ann@example.com', 'ref-ann')] }, 0),
      event('request.viewed', { signer_ref: 'ref-ann', viewed_at: AT }, 1),
      event('request.signed', { signer_id: 'ann@example.com', signer_ref: 'ref-ann' }, 2),
      event('request.turn_started', { order: 2, signers: [listed('bob@example.com', 'ref-bob')] }, 3),
      event(
        'request.reminded',
        { automatic: true, signers: [listed('bob@example.com', 'ref-bob'), listed('cy@example.com', 'r')] },
        4,
      ),
      event('request.reminded', { signers: [listed('bob@example.com', 'ref-bob')] }, 5),
      event(
        'request.signer_updated',
        {
          signer_id: 'bob@example.com',
          signer_ref: 'ref-bob',
          corrected_by: 'owner@acme.test',
          link_replaced: true,
        },
        6,
      ),
      event(
        'request.updated',
        { expires_at: '2030-02-01T00:00:00.000Z', reminder_interval_days: 3, next_reminder_at: null },
        7,
      ),
      event('request.updated', { expires_at: null, reminder_interval_days: null, next_reminder_at: null }, 8),
      event('request.declined', { signer_ref: 'ref-bob', reason: 'Wrong <b>amount</b>' }, 9),
      event('request.completed', {}, 10),
      event('request.cancelled', { previous_state: 'sent' }, 11),
      event('request.expired', { previous_state: 'sent' }, 12),
      event('request.archived', {}, 13),
      event(
        'request.delivery_failed',
        {
          signer_id: 'bob',
          signer_ref: 'ref-bob',
          channel: 'sms',
          status: 'failed',
          error: 'unreachable',
          to: '15552001111',
        },
        14,
      ),
      event(
        'request.delivery_failed',
        {
          signer_id: 'ann@example.com',
          channel: 'email',
          status: 'quota_exceeded',
          error: null,
          to: 'ann@example.com',
        },
        15,
      ),
      event(
        'request.delivery_failed',
        { signer_ref: 'ref-ann', channel: 'email', status: 'failed', error: null },
        16,
      ),
      // ADR 3220: what changed is named.
      event(
        'request.updated',
        { expires_at: null, reminder_interval_days: null, next_reminder_at: null, changed: ['render_data'] },
        17,
      ),
      event(
        'request.updated',
        {
          expires_at: null,
          reminder_interval_days: 2,
          next_reminder_at: null,
          changed: ['reminder_interval_days', 'render_data'],
        },
        18,
      ),
      event(
        'request.updated',
        {
          expires_at: null,
          reminder_interval_days: null,
          next_reminder_at: null,
          changed: ['render_data', 'fields'],
        },
        19,
      ),
      event(
        'request.updated',
        { expires_at: null, reminder_interval_days: null, next_reminder_at: null, changed: ['cc'] },
        20,
      ),
      event(
        'request.updated',
        { expires_at: null, reminder_interval_days: null, next_reminder_at: null, changed: ['message'] },
        21,
      ),
      event(
        'request.updated',
        { expires_at: null, reminder_interval_days: null, next_reminder_at: null, changed: ['title'] },
        22,
      ),
      event(
        'request.updated',
        { expires_at: null, reminder_interval_days: null, next_reminder_at: null, changed: ['subject'] },
        23,
      ),
    ];
    const { text, history, calls } = await show({ [FIRST]: page([...entries].reverse()) });
    assert.deepEqual(
      calls.map((c) => [c.method, c.path, c.bearer]),
      [['GET', `${EVENTS}?order=desc&per_page=100`, 'at_test']],
    );
    assert.match(history, /<h2 id="history-title">History<\/h2>/);
    assert.match(history, /<caption>What happened to this Request, oldest first<\/caption>/);
    assert.match(history, /<th scope="col">When<\/th>\s*<th scope="col">What happened<\/th>/);
    assert.match(
      history,
      /<td><time datetime="2030-01-02T10:00:00.000Z">2030-01-02 10:00:00 UTC<\/time><\/td>/,
    );
    assert.match(history, /<code>request\.signer_updated<\/code>/);
    assert.deepEqual(happenings(history), [
      'Sent to ann@example.com',
      'Viewed by ann@example.com',
      'Signed by ann@example.com',
      'Next signer’s turn started: bob@example.com',
      'Reminded 2 signers (automatic)',
      'Reminded bob@example.com',
      'Contact corrected for bob@example.com by owner@acme.test (new link)',
      'Expiry or reminders changed: expires <time datetime="2030-02-01T00:00:00.000Z">2030-02-01 00:00:00 UTC</time>; automatic reminders every 3 days',
      'Expiry or reminders changed: no expiry; no automatic reminders',
      'Declined by bob@example.com — reason: Wrong &lt;b&gt;amount&lt;/b&gt;',
      'Completed: every signer signed',
      'Cancelled',
      'Expired',
      'request.archived',
      'SMS to bob (15552001111) could not be delivered — unreachable',
      'E-mail to ann@example.com not sent: a daily quota is used up',
      'E-mail to ann@example.com could not be delivered',
      'Render data changed',
      'Render data changed. Expiry or reminders changed: no expiry; automatic reminders every 2 days',
      'Render data and fields changed',
      'CC addresses changed',
      'Message to the signers changed',
      'Title changed',
      'E-mail subject changed',
    ]);
    assert.ok(text.indexOf('<h2>Signers</h2>') < text.indexOf('id="history-title"'), 'after the signers');
  });

  it('says a reminder carrying a new link to a corrected address is an invitation (ADR 3420)', async () => {
    const entries = [
      event('request.reminded', { readdressed: true, signers: [listed('bob@example.com', 'ref-bob')] }, 0),
      event('request.reminded', { signers: [listed('bob@example.com', 'ref-bob')] }, 1),
    ];
    const { history } = await show({ [FIRST]: page(entries.slice().reverse()) });
    assert.deepEqual(happenings(history), [
      'Invited bob@example.com at their corrected address or number',
      'Reminded bob@example.com',
    ]);
  });

  it('says a reminder in the last day before the expiry was one (ADR 3470)', async () => {
    const bob = [listed('bob@example.com', 'ref-bob')];
    const entries = [
      event('request.reminded', { automatic: true, last_day: true, signers: bob }, 0),
      event('request.reminded', { last_day: true, signers: bob }, 1),
    ];
    const { history } = await show({ [FIRST]: page(entries.slice().reverse()) });
    assert.deepEqual(happenings(history), [
      'Reminded bob@example.com (automatic): last day to sign',
      'Reminded bob@example.com: last day to sign',
    ]);
  });

  it('says when the history cannot be read, and still shows the rest of the page', async () => {
    const down = apiProblem(503, 'upstream_unavailable', 'The requests service did not answer.');
    const { text, history } = await show({ [FIRST]: down });
    assert.match(history, /<h2 id="history-title">History<\/h2>/);
    assert.match(history, /The history cannot be shown: The requests service did not answer\./);
    assert.doesNotMatch(history, /<table>/);
    assert.match(text, /<h2>Signers<\/h2>/);
    assert.match(text, /<th scope="row">ann@example\.com<\/th>/);
    assert.match(text, /Expiry and reminders/);
    const unknown = await show({});
    assert.match(unknown.history, /The history cannot be shown: Not found/, 'a call the API does not know');
    assert.match(unknown.text, /<th scope="row">bob@example\.com<\/th>/);
  });

  it('says that nothing has happened yet to a draft', async () => {
    const draft = { ...TWO, state: 'draft', sent_at: null };
    const { history } = await show({ [FIRST]: page([]) }, draft);
    assert.match(history, /<p class="notice">\s*Nothing has happened yet\.\s*<\/p>/);
    assert.doesNotMatch(history, /<table>/);
    const sent = await show({ [FIRST]: page([]) });
    assert.match(sent.history, /No events are recorded for this Request\./);
  });

  it('shows the latest 100 of more, oldest first, and how many there are in all, in one call', async () => {
    const newestFirst = Array.from({ length: 100 }, (_, i) =>
      event('request.viewed', { signer_id: `signer-${249 - i}`, signer_ref: 'x' }, 249 - i),
    );
    const { history, calls } = await show({
      [FIRST]: { page: 1, per_page: 100, count: 100, total_count: 250, has_more: true, data: newestFirst },
    });
    assert.equal(calls.length, 1);
    assert.match(history, /There are 250 events in all: the latest 100 are shown\./);
    assert.match(history, /<caption>The latest 100 of 250 events, oldest first<\/caption>/);
    const shown = happenings(history);
    assert.deepEqual(
      [shown.length, shown[0], shown[99]],
      [100, 'Viewed by signer-150', 'Viewed by signer-249'],
    );
  });
});
