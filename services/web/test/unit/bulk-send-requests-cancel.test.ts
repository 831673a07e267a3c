import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, callsOf, COOKIE, CSRF, CURRENT, ORIGIN } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const ID = 'b7a1c2d3-0000-4000-8000-000000000002';
const PAGE = `/app/bulk-sends/${ID}`;
const GET = `GET /v1.1/bulk_sends/${ID}`;
const CANCEL_REQUESTS = `POST /v1.1/bulk_sends/${ID}/cancel_requests`;
const AT = '2030-01-01T00:00:00.000Z';

/** A bulk send of 15 rows to send, all made and sent, as `GET /v1.1/bulk_sends/:id` answers it. */
const COMPLETED = {
  id: ID,
  site_id: 3,
  state: 'completed',
  send: true,
  test_mode: false,
  rows_total: 15,
  created: 15,
  sent: 15,
  failed: 0,
  cancelled: 0,
  cancelled_at: null,
  failures: [],
  requests: Array.from({ length: 15 }, (_, row) => ({
    row,
    request_id: `r0000000-0000-4000-8000-0000000000${String(row).padStart(2, '0')}`,
  })),
  created_at: AT,
  completed_at: '2030-01-01T00:02:00.000Z',
};
/** The same still making its rows. */
const RUNNING = { ...COMPLETED, state: 'running', created: 4, sent: 4, completed_at: null };
/** A completed one whose every row failed: it made no Request. */
const NONE_MADE = {
  ...COMPLETED,
  rows_total: 1,
  created: 0,
  sent: 0,
  failed: 1,
  failures: [{ row: 0, request_id: null, errors: [{ path: 'rows[0].signers', message: 'is wrong' }] }],
  requests: [],
};
const CANCELLED = { bulk_send_id: ID, cancelled: 12, already_closed: 3 };

const answers = (more: Record<string, unknown>) => ({ 'GET /v1.1/sessions/current': CURRENT, ...more });
const post = (
  app: ReturnType<typeof appWith>,
  path: string,
  fields: Record<string, string> = { _csrf: CSRF },
) => request(app.callback).post(path).set('Cookie', COOKIE).set('Origin', ORIGIN).type('form').send(fields);
const DISCLOSURE = '<summary>Cancel the Requests it made…</summary>';
/** The page's success notice, flattened, or undefined when it shows none. */
const noticeOf = (text: string): string | undefined =>
  /<p class="success" role="status">([^<]*)<\/p>/.exec(flat(text))?.[1];
const done = (query: string) => `${PAGE}?done=requests-cancelled&${query}`;

/** Cancelling the Requests a completed bulk send made, from its progress page, over the fake API. */
describe('web: cancelling the Requests a bulk send made', () => {
  it('offers it behind a disclosure, with CSRF and what it does, once completed with Requests made', async () => {
    const text = flat(await showPage(appWith(answers({ [GET]: COMPLETED })), PAGE));
    assert.match(text, new RegExp(DISCLOSURE));
    const form = text.slice(text.indexOf(DISCLOSURE), text.indexOf('</details>'));
    assert.match(form, new RegExp(`<form method="post" action="${PAGE}/cancel-requests" ?>`));
    assert.match(
      form,
      /<label for="cancel-requests-reason">Reason \(optional\)<\/label> <p class="hint" id="cancel-requests-reason-hint"> Kept in each Request’s history, and quoted to the signers when they are told\. Up to 1,000 characters\. <\/p> <textarea id="cancel-requests-reason" name="reason" rows="3" maxlength="1000" class="prose" aria-describedby="cancel-requests-reason-hint" ?><\/textarea>/,
    );
    assert.match(
      form,
      /<input type="checkbox" id="cancel-requests-notify" name="notify_signers" value="true" aria-describedby="cancel-requests-notify-hint" \/> <label for="cancel-requests-notify" ?>Tell their signers/,
    );
    assert.doesNotMatch(form, /checked/, 'nobody is told unless the box is ticked');
    assert.match(form, new RegExp(`name="_csrf" value="${CSRF}"`));
    assert.match(
      form,
      /<button type="submit" class="danger" aria-describedby="cancel-requests-hint"> ?Cancel its open Requests ?<\/button>/,
    );
    assert.match(
      form,
      /<p class="hint" id="cancel-requests-hint"> Every Request it made that is still a draft or waiting for signatures is cancelled, and its signing links stop working\. Completed, declined and expired ones stay as they are\. <\/p>/,
    );
    assert.doesNotMatch(text, /Stop this bulk send/, 'not the cancel of a running one');
    assert.equal(noticeOf(text), undefined, 'no notice before the cancel');
  });

  it('offers it also once a cancelled bulk send completed with Requests made', async () => {
    const stopped = { ...COMPLETED, cancelled: 3, created: 12, sent: 12, cancelled_at: AT };
    const text = flat(await showPage(appWith(answers({ [GET]: stopped })), PAGE));
    assert.match(text, new RegExp(DISCLOSURE));
  });

  it('offers it neither while running nor when it made no Request', async () => {
    for (const bulk of [RUNNING, NONE_MADE]) {
      const text = await showPage(appWith(answers({ [GET]: bulk })), PAGE);
      assert.doesNotMatch(
        text,
        /Cancel the Requests it made|Cancel its open Requests|cancel-requests/,
        bulk.state,
      );
    }
  });

  it('cancels them through the API, then redirects to the progress page with the counts', async () => {
    const app = appWith(answers({ [CANCEL_REQUESTS]: CANCELLED, [GET]: COMPLETED }));
    const answer = await post(app, `${PAGE}/cancel-requests`).expect(303);
    assert.equal(answer.headers.location, `${PAGE}?done=requests-cancelled&cancelled=12&closed=3`);
    assert.deepEqual(callsOf(app, 'POST'), [[`/v1.1/bulk_sends/${ID}/cancel_requests`, undefined]]);
    assert.equal(
      noticeOf(await showPage(app, answer.headers.location as string)),
      'Cancelled 12 Requests. 3 were closed already and stay as they are.',
    );
  });

  it('sends the reason typed (ADR 3500), trimmed with its line breaks, and no body for a blank one', async () => {
    for (const [typed, body] of [
      [' Wrong prices.\r\nA new bulk send follows. ', { reason: 'Wrong prices.\nA new bulk send follows.' }],
      ['  \r\n ', undefined],
    ] as const) {
      const app = appWith(answers({ [CANCEL_REQUESTS]: CANCELLED, [GET]: COMPLETED }));
      await post(app, `${PAGE}/cancel-requests`, { _csrf: CSRF, reason: typed }).expect(303);
      assert.deepEqual(callsOf(app, 'POST'), [[`/v1.1/bulk_sends/${ID}/cancel_requests`, body]]);
    }
  });

  it('tells the signers when the box is ticked (ADR 3530), and says so after the cancel', async () => {
    const text = await showPage(appWith(answers({ [GET]: COMPLETED })), PAGE);
    assert.match(text, /Tell their signers they were cancelled \(by e-mail or SMS, as they were invited\)/);
    for (const [fields, body] of [
      [{ notify_signers: 'true' }, { notify_signers: true }],
      [
        { reason: 'New terms.', notify_signers: 'true' },
        { reason: 'New terms.', notify_signers: true },
      ],
      [{ notify_signers: 'false' }, undefined],
    ] as const) {
      const app = appWith(answers({ [CANCEL_REQUESTS]: CANCELLED, [GET]: COMPLETED }));
      const answer = await post(app, `${PAGE}/cancel-requests`, { _csrf: CSRF, ...fields }).expect(303);
      assert.deepEqual(callsOf(app, 'POST'), [[`/v1.1/bulk_sends/${ID}/cancel_requests`, body]]);
      const told = body?.notify_signers === true;
      assert.equal(
        answer.headers.location,
        `${PAGE}?done=requests-cancelled&cancelled=12&closed=3${told ? '&told=1' : ''}`,
      );
      assert.equal(
        noticeOf(await showPage(app, answer.headers.location)),
        told
          ? 'Cancelled 12 Requests, and their signers who had been sent a link are being told. 3 were closed already and stay as they are.'
          : 'Cancelled 12 Requests. 3 were closed already and stay as they are.',
      );
    }
  });

  it('says how many were cancelled and how many were closed already, in the singular too', async () => {
    const app = appWith(answers({ [GET]: COMPLETED }));
    const said = async (query: string) => noticeOf(await showPage(app, done(query)));
    assert.equal(
      await said('cancelled=12&closed=3'),
      'Cancelled 12 Requests. 3 were closed already and stay as they are.',
    );
    assert.equal(await said('cancelled=1&closed=0'), 'Cancelled 1 Request.');
    assert.equal(
      await said('cancelled=2&closed=1'),
      'Cancelled 2 Requests. 1 was closed already and stays as it is.',
    );
    assert.equal(
      await said('cancelled=0&closed=2'),
      'No Request was open: nothing was cancelled. 2 were closed already and stay as they are.',
    );
    assert.equal(await said('cancelled=0&closed=0'), 'No Request was open: nothing was cancelled.');
  });

  it('shows no notice for counts it did not redirect with, and never echoes them', async () => {
    const app = appWith(answers({ [GET]: COMPLETED }));
    for (const query of [
      'cancelled=lots&closed=3',
      'cancelled=12',
      'closed=3',
      'cancelled=-1&closed=3',
      'cancelled=1.5&closed=0',
      'cancelled=12&closed=3e2',
      'cancelled=99999999999999999999&closed=0',
      'cancelled=1001&closed=0',
      'cancelled=%3Cb%3E1%3C%2Fb%3E&closed=0',
      'cancelled=12&cancelled=13&closed=3',
      'cancelled=%2012&closed=3',
    ]) {
      const text = await showPage(app, done(query));
      assert.equal(noticeOf(text), undefined, query);
      assert.doesNotMatch(text, /class="success"|lots|<b>1|99999/, query);
    }
    assert.equal(
      noticeOf(await showPage(app, `${PAGE}?done=cancelled-requests&cancelled=12&closed=3`)),
      undefined,
    );
    assert.equal(noticeOf(await showPage(app, `${PAGE}?cancelled=12&closed=3`)), undefined);
  });

  it('shows the API’s refusal on the progress page: still running', async () => {
    const refused = apiProblem(
      409,
      'bulk_send_running',
      'This bulk send is still making its Requests: cancel it first, then cancel its Requests once it completes.',
    );
    const app = appWith(answers({ [CANCEL_REQUESTS]: refused, [GET]: RUNNING }));
    const text = flat((await post(app, `${PAGE}/cancel-requests`).expect(409)).text);
    assert.match(
      text,
      /<div class="errors" role="alert" tabindex="-1" id="problem"> <h2>There is a problem<\/h2> <p>This bulk send is still making its Requests: cancel it first, then cancel its Requests once it completes\.<\/p>/,
    );
    assert.match(text, /<h1>Bulk send <code>b7a1c2d3<\/code><\/h1>/, 'on its progress page');
    assert.match(text, /<dd data-count="created">4<\/dd>/);
    assert.match(text, /<summary>Stop this bulk send…<\/summary>/, 'with the cancel of a running one');
    assert.equal(noticeOf(text), undefined);
  });

  it('shows a problem page when the bulk send cannot be read, and asks for the id as one segment', async () => {
    const app = appWith(answers({}));
    const text = await post(app, '/app/bulk-sends/a%2F..%2Fx/cancel-requests').expect(404);
    assert.match(text.text, /<h1>Not found<\/h1>/);
    assert.deepEqual(
      app.calls.map((c) => `${c.method} ${c.path}`),
      [
        'GET /v1.1/sessions/current',
        'POST /v1.1/bulk_sends/a%2F..%2Fx/cancel_requests',
        'GET /v1.1/bulk_sends/a%2F..%2Fx',
      ],
    );
  });

  it('refuses the form without its anti-forgery token, asking the API nothing', async () => {
    const app = appWith(answers({ [CANCEL_REQUESTS]: CANCELLED, [GET]: COMPLETED }));
    await post(app, `${PAGE}/cancel-requests`, {}).expect(403);
    await post(app, `${PAGE}/cancel-requests`, { _csrf: 'forged' }).expect(403);
    await request(app.callback)
      .post(`${PAGE}/cancel-requests`)
      .set('Cookie', COOKIE)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ _csrf: CSRF })
      .expect(403);
    assert.deepEqual(callsOf(app, 'POST'), []);
  });
});
