import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, callsOf, COOKIE, CSRF, CURRENT, ORIGIN } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const ID = 'b7a1c2d3-0000-4000-8000-000000000001';
const PAGE = `/app/bulk-sends/${ID}`;
const GET = `GET /v1.1/bulk_sends/${ID}`;
const CANCEL = `POST /v1.1/bulk_sends/${ID}/cancel`;
const AT = '2030-01-01T00:00:00.000Z';
const CANCELLED_AT = '2030-01-01T00:01:00.000Z';

/** A bulk send of 200 rows to send, 40 made so far, as `GET /v1.1/bulk_sends/:id` answers it. */
const RUNNING = {
  id: ID,
  site_id: 3,
  state: 'running',
  send: true,
  test_mode: false,
  rows_total: 200,
  created: 40,
  sent: 40,
  failed: 1,
  cancelled: 0,
  cancelled_at: null,
  failures: [{ row: 7, request_id: null, errors: [{ path: 'rows[7].signers', message: 'is wrong' }] }],
  requests: [{ row: 0, request_id: 'r0000000-0000-4000-8000-000000000000' }],
  created_at: AT,
  completed_at: null,
};
/** The same just cancelled: the rows being made still to settle. */
const STOPPING = { ...RUNNING, cancelled: 157, cancelled_at: CANCELLED_AT };
/** …and once they have. */
const STOPPED = {
  ...STOPPING,
  state: 'completed',
  created: 42,
  sent: 42,
  completed_at: '2030-01-01T00:01:30.000Z',
};
const COMPLETED = { ...RUNNING, state: 'completed', created: 199, sent: 199, completed_at: AT };

const answers = (more: Record<string, unknown>) => ({ 'GET /v1.1/sessions/current': CURRENT, ...more });
const post = (
  app: ReturnType<typeof appWith>,
  path: string,
  fields: Record<string, string> = { _csrf: CSRF },
) => request(app.callback).post(path).set('Cookie', COOKIE).set('Origin', ORIGIN).type('form').send(fields);
const DISCLOSURE = '<summary>Stop this bulk send…</summary>';
const NOTICE =
  '<p class="success" role="status">Cancelled: no more rows are made. Rows being made at that moment finish.</p>';

/** Cancelling a running bulk send from its progress page (ADR 3450), over the fake API. */
describe('web: cancelling a bulk send', () => {
  it('offers the cancel behind a disclosure, with CSRF and what it does, while running and not cancelled', async () => {
    const text = flat(await showPage(appWith(answers({ [GET]: RUNNING })), PAGE));
    assert.match(text, new RegExp(DISCLOSURE));
    const form = text.slice(text.indexOf(DISCLOSURE), text.indexOf('</details>'));
    assert.match(form, new RegExp(`<form method="post" action="${PAGE}/cancel" class="inline" ?>`));
    assert.match(form, new RegExp(`name="_csrf" value="${CSRF}"`));
    assert.match(
      form,
      /<button type="submit" class="danger" aria-describedby="cancel-hint"> ?Cancel the remaining rows ?<\/button>/,
    );
    assert.match(
      form,
      /<p class="hint" id="cancel-hint"> No more of its rows are made\. Rows being made at this moment finish\. Requests already made are not cancelled: once it completes, cancel them all on this page\. <\/p>/,
    );
    assert.doesNotMatch(text, /data-count="cancelled"/, 'no Cancelled count while not cancelled');
    assert.match(text, /Working through the rows in the background/);
  });

  it('offers no cancel once completed, or once cancelled', async () => {
    for (const bulk of [COMPLETED, STOPPING, STOPPED]) {
      const text = await showPage(appWith(answers({ [GET]: bulk })), PAGE);
      assert.doesNotMatch(text, /Stop this bulk send|Cancel the remaining rows|\/cancel"/, bulk.state);
    }
  });

  it('cancels through the API, then shows its notice on the progress page', async () => {
    const app = appWith(answers({ [CANCEL]: STOPPING, [GET]: STOPPING }));
    const answer = await post(app, `${PAGE}/cancel`).expect(303);
    assert.equal(answer.headers.location, `${PAGE}?done=cancelled`);
    assert.deepEqual(callsOf(app, 'POST'), [[`/v1.1/bulk_sends/${ID}/cancel`, undefined]]);
    const text = await showPage(app, `${PAGE}?done=cancelled`);
    assert.match(text, new RegExp(NOTICE));
    assert.doesNotMatch(await showPage(app, PAGE), /class="success"/, 'the notice only after the cancel');
  });

  it('shows a cancelled one stopping: when, the rows left unmade, and that it completes', async () => {
    const text = flat(await showPage(appWith(answers({ [GET]: STOPPING })), PAGE));
    assert.match(
      text,
      /<p role="status"><span class="state state-running">running<\/span> Cancelled <time datetime="2030-01-01T00:01:00.000Z">2030-01-01 00:01:00 UTC<\/time>\. <span class="hint">Stopping: the rows being made finish, then it completes\.<\/span> <a href="[^"]+">Refresh<\/a><\/p>/,
    );
    assert.match(text, /<dt>Cancelled<\/dt> <dd data-count="cancelled">157<\/dd>/);
    assert.doesNotMatch(text, /Working through the rows/);
  });

  it('shows a cancelled one completed: when it was cancelled and done, and its counts', async () => {
    const text = flat(await showPage(appWith(answers({ [GET]: STOPPED })), PAGE));
    assert.match(
      text,
      /<span class="state state-completed">completed<\/span> Cancelled <time datetime="2030-01-01T00:01:00.000Z">[^<]+<\/time>\. Done <time datetime="2030-01-01T00:01:30.000Z">/,
    );
    const counts = [...text.matchAll(/<dd data-count="([a-z]+)">(\d+)<\/dd>/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(counts, [
      ['rows', '200'],
      ['created', '42'],
      ['sent', '42'],
      ['failed', '1'],
      ['cancelled', '157'],
    ]);
    assert.doesNotMatch(text, /Stopping/);
  });

  it('shows the API’s refusal on the progress page: nothing left to cancel', async () => {
    const refused = apiProblem(
      409,
      'bulk_send_completed',
      'This bulk send completed: nothing is left to cancel.',
    );
    const app = appWith(answers({ [CANCEL]: refused, [GET]: COMPLETED }));
    const text = flat((await post(app, `${PAGE}/cancel`).expect(409)).text);
    assert.match(
      text,
      /<div class="errors" role="alert" tabindex="-1" id="problem"> <h2>There is a problem<\/h2> <p>This bulk send completed: nothing is left to cancel\.<\/p>/,
    );
    assert.match(text, /<h1>Bulk send <code>b7a1c2d3<\/code><\/h1>/, 'on its progress page');
    assert.match(text, /<dd data-count="created">199<\/dd>/);
    assert.doesNotMatch(text, /class="success"/);
  });

  it('shows a problem page when the bulk send cannot be read, and asks for the id as one segment', async () => {
    const app = appWith(answers({}));
    const text = await post(app, '/app/bulk-sends/a%2F..%2Fx/cancel').expect(404);
    assert.match(text.text, /<h1>Not found<\/h1>/);
    assert.deepEqual(
      app.calls.map((c) => `${c.method} ${c.path}`),
      [
        'GET /v1.1/sessions/current',
        'POST /v1.1/bulk_sends/a%2F..%2Fx/cancel',
        'GET /v1.1/bulk_sends/a%2F..%2Fx',
      ],
    );
  });

  it('refuses a cancel form without its anti-forgery token, asking the API nothing', async () => {
    const app = appWith(answers({ [CANCEL]: STOPPING, [GET]: STOPPING }));
    await post(app, `${PAGE}/cancel`, {}).expect(403);
    await post(app, `${PAGE}/cancel`, { _csrf: 'forged' }).expect(403);
    await request(app.callback)
      .post(`${PAGE}/cancel`)
      .set('Cookie', COOKIE)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ _csrf: CSRF })
      .expect(403);
    assert.deepEqual(callsOf(app, 'POST'), []);
  });
});
