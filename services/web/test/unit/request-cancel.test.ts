import assert from 'node:assert/strict';
import request from 'supertest';
import {
  apiProblem,
  appWith,
  callsOf,
  COOKIE,
  CSRF,
  page,
  REQUEST_ID as ID,
  requestView,
} from '../support/fake-api.js';
import { flat } from '../support/page-text.js';
import { requestPageForm } from '../support/request-page.js';

const CANCEL = `POST /v1.1/requests/${ID}/cancel`;
const AT = '2030-01-03T00:00:00.000Z';
const SENT = requestView('sent');
const DRAFT = { ...SENT, state: 'draft', sent_at: null };
const CANCELLED = { ...SENT, state: 'cancelled', cancelled_at: AT };
const DISCLOSURE = '<summary>Cancel Request…</summary>';
const CHECKBOX =
  '<input type="checkbox" id="cancel-notify" name="notify_signers" value="true" aria-describedby="cancel-notify-hint" />';
const LABEL =
  '<label for="cancel-notify" >Tell the signers it was cancelled (by e-mail or SMS, as they were invited)</label >';
const TOO_LONG = 'must be at most 1000 characters';

/** The cancel disclosure of a page, flattened: `<details class="cancel"…>` to its end. */
const disclosure = (text: string): string =>
  /<details class="cancel"[^]*?<\/details>/.exec(flat(text))?.[0] ?? '';

const { answers, show, post, calls } = requestPageForm({
  action: 'cancel',
  call: CANCEL,
  shown: SENT,
  hidden: {},
});

/** Cancel Request… on a Request's page, with its reason and message to the signers, over the fake API. */
describe('web: cancelling a Request from its page', () => {
  it('offers a sent Request’s cancel behind a disclosure: a reason, telling the signers, and the button', async () => {
    const text = disclosure(await show(SENT));
    assert.equal(
      text.slice(0, text.indexOf('<div class="field">')),
      `<details class="cancel" > ${DISCLOSURE} <form method="post" action="/app/requests/${ID}/cancel" novalidate> <input type="hidden" name="_csrf" value="${CSRF}" /> `,
    );
    assert.match(
      text,
      /<label for="cancel-reason">Reason \(optional\)<\/label> <p class="hint" id="cancel-reason-hint"> Once cancelled, the signers’ links stop working\. The reason is kept in the Request’s history and, when the signers are told, shown to them\. Up to 1,000 characters\. <\/p>/,
    );
    assert.match(
      text,
      /<textarea id="cancel-reason" name="reason" rows="3" maxlength="1000" class="prose" aria-describedby="cancel-reason-hint" > <\/textarea>/,
    );
    assert.ok(text.includes(`${CHECKBOX} ${LABEL}`), text);
    assert.match(
      text,
      /<p class="hint" id="cancel-notify-hint"> Only the signers who were sent their link: in a signing order, those whose turn has come\. <\/p>/,
    );
    assert.ok(
      text.endsWith('<button type="submit" class="danger">Cancel Request</button> </form> </details>'),
    );
    assert.doesNotMatch(text, / open|aria-invalid|class="error"/, 'closed, with no error');
  });

  it('offers a draft’s cancel with a reason only: nobody was told of a draft', async () => {
    const text = disclosure(await show(DRAFT));
    assert.match(text, new RegExp(DISCLOSURE));
    assert.match(
      text,
      /<p class="hint" id="cancel-reason-hint"> Once cancelled, it can no longer be sent\. The reason is kept in the Request’s history\. Up to 1,000 characters\. <\/p>/,
    );
    assert.match(text, /<textarea id="cancel-reason" name="reason"/);
    assert.doesNotMatch(text, /notify_signers|checkbox|Tell the signers|signers’ links/);
    assert.match(text, /<button type="submit" class="danger">Cancel Request<\/button>/);
  });

  it('offers no cancel once the Request is completed, cancelled, expired or declined', async () => {
    for (const state of ['completed', 'cancelled', 'expired', 'declined']) {
      const text = await show({ ...requestView(state === 'completed' ? 'completed' : 'sent'), state });
      assert.doesNotMatch(text, /Cancel Request|\/cancel"|name="reason"/, state);
    }
  });

  it('offers no plain Cancel Request button any more, and keeps Send and Remind signers as they were', async () => {
    const sent = flat(await show(SENT));
    assert.doesNotMatch(sent, /class="inline"[^]{0,200}Cancel Request/);
    assert.match(
      sent,
      new RegExp(
        `<form method="post" action="/app/requests/${ID}/remind" class="inline"> <input type="hidden" name="_csrf" value="${CSRF}" /> <button type="submit" class="secondary">Remind signers</button> </form>`,
      ),
    );
    const draft = flat(await show(DRAFT));
    assert.match(
      draft,
      new RegExp(
        `<form method="post" action="/app/requests/${ID}/send" class="inline"> <input type="hidden" name="_csrf" value="${CSRF}" /> <button type="submit" >Send</button> </form>`,
      ),
    );
    for (const action of ['send', 'remind']) {
      const app = appWith({ ...answers(undefined), [`POST /v1.1/requests/${ID}/${action}`]: SENT });
      const res = await request(app.callback)
        .post(`/app/requests/${ID}/${action}`)
        .set('Cookie', COOKIE)
        .set('Origin', 'http://127.0.0.1:8080')
        .type('form')
        .send({ _csrf: CSRF, reason: 'ignored', notify_signers: 'true' })
        .expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=${action}`);
      assert.deepEqual(callsOf(app, 'POST'), [[`/v1.1/requests/${ID}/${action}`, undefined]], action);
    }
  });

  it('posts no body for an empty form (or a blank reason), and says the Request was cancelled', async () => {
    for (const fields of [{}, { reason: '' }, { reason: ' \r\n\t ' }] as Record<string, string>[]) {
      const app = appWith(answers(CANCELLED));
      const res = await post(app, fields).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=cancel`, JSON.stringify(fields));
      assert.deepEqual(
        calls(app).map((c) => c.body),
        [undefined],
        JSON.stringify(fields),
      );
    }
    const shown = await request(appWith(answers(undefined, CANCELLED)).callback)
      .get(`/app/requests/${ID}?done=cancel`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(shown.text, /<p class="success" role="status">The Request was cancelled\.<\/p>/);
  });

  it('posts the reason alone, trimmed, its line breaks as \\n', async () => {
    const app = appWith(answers(CANCELLED));
    const res = await post(app, { reason: '  Wrong fee.\r\nA new one follows.  ' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=cancel`);
    assert.deepEqual(
      calls(app).map((c) => c.body),
      [{ reason: 'Wrong fee.\nA new one follows.' }],
    );
  });

  it('posts the reason and notify_signers when ticked, and then says the signers are being told', async () => {
    const app = appWith(answers(CANCELLED));
    const res = await post(app, { reason: ' Wrong fee ', notify_signers: 'true' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=cancel-told`);
    assert.deepEqual(
      calls(app).map((c) => c.body),
      [{ reason: 'Wrong fee', notify_signers: true }],
    );
    const alone = appWith(answers(CANCELLED));
    const told = await post(alone, { reason: '', notify_signers: 'true' }).expect(303);
    assert.equal(told.headers.location, `/app/requests/${ID}?done=cancel-told`);
    assert.deepEqual(
      calls(alone).map((c) => c.body),
      [{ notify_signers: true }],
    );
    const shown = await request(appWith(answers(undefined, CANCELLED)).callback)
      .get(`/app/requests/${ID}?done=cancel-told`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(
      shown.text,
      /<p class="success" role="status">The Request was cancelled, and its signers are being told\.<\/p>/,
    );
  });

  it('does not say the signers are told when the cancelled Request was a draft', async () => {
    const app = appWith(answers({ ...DRAFT, state: 'cancelled', cancelled_at: AT }));
    const res = await post(app, { notify_signers: 'true' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=cancel`);
    assert.deepEqual(
      calls(app).map((c) => c.body),
      [{ notify_signers: true }],
    );
  });

  it('refuses a cancel form without its anti-forgery token, asking the API nothing', async () => {
    const app = appWith(answers(CANCELLED));
    for (const csrf of [undefined, 'forged']) {
      await request(app.callback)
        .post(`/app/requests/${ID}/cancel`)
        .set('Cookie', COOKIE)
        .set('Origin', 'http://127.0.0.1:8080')
        .type('form')
        .send(csrf === undefined ? { reason: 'x' } : { _csrf: csrf, reason: 'x' })
        .expect(403);
    }
    await request(app.callback)
      .post(`/app/requests/${ID}/cancel`)
      .set('Cookie', COOKIE)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ _csrf: CSRF, reason: 'x' })
      .expect(403);
    assert.deepEqual(callsOf(app, 'POST'), []);
  });

  it('shows a refusal at `reason` beside the field, the disclosure open with what was typed', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The body is not valid.', { reason: TOO_LONG });
    const app = appWith(answers(refused));
    const res = await post(app, { reason: 'Fee <b>wrong</b>', notify_signers: 'true' }).expect(422);
    const text = disclosure(res.text);
    assert.ok(text.startsWith(`<details class="cancel" open> ${DISCLOSURE}`), text.slice(0, 80));
    assert.match(
      text,
      new RegExp(
        `<p class="error" id="cancel-reason-error">${TOO_LONG}</p> <textarea id="cancel-reason" name="reason" rows="3" maxlength="1000" class="prose" aria-describedby="cancel-reason-hint cancel-reason-error" aria-invalid="true" > Fee &lt;b&gt;wrong&lt;/b&gt;</textarea>`,
      ),
    );
    assert.ok(text.includes(`${CHECKBOX.replace(' />', ' checked />')} ${LABEL}`), 'still ticked');
    const summary = /<div class="errors" role="alert"[^]*?<\/div>/.exec(flat(res.text))?.[0];
    assert.equal(
      summary,
      `<div class="errors" role="alert" tabindex="-1" id="problem"> <h2>There is a problem</h2> <p>The body is not valid. The Request was not cancelled.</p> <ul> <li><a href="#cancel-reason">Reason: ${TOO_LONG}</a></li> </ul> </div>`,
    );
    assert.doesNotMatch(res.text, /class="success"/);
    assert.deepEqual(
      calls(app).map((c) => c.body),
      [{ reason: 'Fee <b>wrong</b>', notify_signers: true }],
    );
  });

  it('shows another refusal in the summary, the disclosure open with what was typed and no field error', async () => {
    const busy = apiProblem(503, 'upstream_unavailable', 'The requests service did not answer');
    const res = await post(appWith(answers(busy)), { reason: 'Wrong fee' }).expect(503);
    const text = disclosure(res.text);
    assert.ok(text.startsWith(`<details class="cancel" open>`));
    assert.match(text, /aria-describedby="cancel-reason-hint" > Wrong fee<\/textarea>/);
    assert.doesNotMatch(text, /class="error"|aria-invalid|checked/);
    assert.match(
      flat(res.text),
      /<p>The requests service did not answer\. The Request was not cancelled\.<\/p>/,
    );
  });
});

describe('web: a cancelled Request’s History entry', () => {
  const cancelled = (data: Record<string, unknown>, n: number) => ({
    id: `00000000-0000-4000-8000-00000000000${n}`,
    type: 'request.cancelled',
    created_at: `2030-01-02T10:0${n}:00.000Z`,
    site_id: 3,
    data: { request_id: ID, previous_state: 'sent', ...data },
  });

  it('says the reason, escaped, and that the signers were told, only when they were', async () => {
    const entries = [
      cancelled({}, 0),
      cancelled({ reason: 'Fee <b>wrong</b> & late' }, 1),
      cancelled({ signers_notified: true }, 2),
      cancelled({ reason: 'Wrong fee', signers_notified: true }, 3),
      cancelled({ reason: '', signers_notified: false }, 4),
    ];
    const app = appWith({
      ...answers(undefined, CANCELLED),
      [`GET /v1.1/requests/${ID}/events?order=desc&per_page=100`]: page(entries.slice().reverse()),
    });
    const res = await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200);
    const history = /<section aria-labelledby="history-title">[^]*?<\/section>/.exec(res.text)?.[0] ?? '';
    assert.deepEqual(
      [...history.matchAll(/<tr>\s*<td><time[^]*?<\/time><\/td>\s*<td>([^]*?)<\/td>/g)].map((m) =>
        m[1]!.replace(/\s+/g, ' ').trim(),
      ),
      [
        'Cancelled',
        'Cancelled: Fee &lt;b&gt;wrong&lt;/b&gt; &amp; late',
        'Cancelled; the signers were told',
        'Cancelled: Wrong fee; the signers were told',
        'Cancelled',
      ],
    );
  });
});
