import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, COOKIE, page, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const SENT = requestView('sent');
const DRAFT = { ...SENT, state: 'draft', sent_at: null };
const ON = { ...SENT, allow_reassign: true };

/** The Reassigning section of a page, or '' when it has none. */
const section = (text: string): string =>
  /<section class="panel" aria-labelledby="reassign-heading">[^]*?<\/section>/.exec(text)?.[0] ?? '';

/**
 * Whether a Request's signers may ask someone else to sign in their place (ADR 3560),
 * turned on or off on a draft's or a sent Request's page, over the fake API.
 */
describe('web: reassigning on a Request’s page', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'reassign',
    call: PATCH,
    shown: SENT,
    hidden: { idempotency_key: 'key-1', was_allow_reassign: 'false' },
  });

  it('offers a draft’s and a sent Request’s form, ticked as the Request is', async () => {
    for (const [shown, on] of [
      [DRAFT, false],
      [SENT, false],
      [{ ...DRAFT, allow_reassign: true }, true],
      [ON, true],
    ] as const) {
      const found = section(await show(shown));
      const what = `${shown.state}, ${String(on)}`;
      assert.match(found, /<h2 id="reassign-heading">Reassigning<\/h2>/, what);
      assert.match(
        found,
        on
          ? /<p>\s*Signers may ask someone else to sign in their place\.\s*<\/p>/
          : /<p>\s*Signers must sign themselves; they cannot pass this Request on\.\s*<\/p>/,
        what,
      );
      assert.match(
        found,
        /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/reassign" novalidate>/,
      );
      assert.match(found, /name="_csrf"/);
      assert.match(found, /name="idempotency_key" value="[0-9a-f-]{36}"/);
      assert.match(found, new RegExp(`name="was_allow_reassign" value="${String(on)}"`), what);
      assert.match(
        found,
        new RegExp(
          `type="checkbox"\\s+id="allow_reassign"\\s+name="allow_reassign"\\s+value="true"\\s+${on ? 'checked\\s+' : ''}aria-describedby="allow_reassign-hint"`,
        ),
        what,
      );
      assert.match(found, /Signers may ask someone else to sign in their place<\/label/);
      assert.match(
        found,
        /id="allow_reassign-hint">A signer whose check before signing is an access code or a code by text is never offered it\./,
      );
      assert.match(found, /<button type="submit">Save reassigning<\/button>/);
    }
  });

  it('is not offered on a closed Request, whose facts still say it', async () => {
    for (const state of ['completed', 'cancelled', 'expired', 'declined'] as const) {
      const text = await show({ ...requestView('completed'), state, allow_reassign: true });
      assert.equal(section(text), '', state);
      assert.doesNotMatch(text, /reassign-heading|\/reassign"|was_allow_reassign/, state);
      assert.match(text, /<dt>Signers may reassign<\/dt>/, state);
    }
  });

  it('turns it on with exactly { allow_reassign: true } and the form’s Idempotency-Key, then says so', async () => {
    const app = appWith(answers(ON));
    const res = await post(app, { allow_reassign: 'true' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=reassign-on`);
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.idempotencyKey]),
      [[{ allow_reassign: true }, 'key-1']],
    );
    const shown = await request(app.callback)
      .get(`/app/requests/${ID}?done=reassign-on`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(shown.text, /role="status">Signers may now ask someone else to sign in their place\./);
  });

  it('turns it off, unticked, with exactly { allow_reassign: false }, then says so', async () => {
    const app = appWith(answers(SENT, ON));
    const res = await post(app, { was_allow_reassign: 'true' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=reassign-off`);
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.idempotencyKey]),
      [[{ allow_reassign: false }, 'key-1']],
    );
    const shown = await request(app.callback)
      .get(`/app/requests/${ID}?done=reassign-off`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(shown.text, /role="status">Signers can no longer pass this Request on\./);
  });

  it('asks nothing when the box is as the page showed it, and says so', async () => {
    for (const [was, fields] of [
      ['false', {}],
      ['true', { allow_reassign: 'true' }],
    ] as const) {
      const app = appWith(answers(undefined));
      const res = await post(app, { was_allow_reassign: was, ...fields }).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=reassign-same`, was);
      assert.deepEqual(calls(app), [], was);
      const shown = await request(app.callback)
        .get(`/app/requests/${ID}?done=reassign-same`)
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(shown.text, /role="status">Reassigning was already as given: nothing was changed\./);
    }
  });

  it('shows the API’s refusal first on the page, the box as it was sent, the same key', async () => {
    const app = appWith(
      answers(apiProblem(409, 'state_conflict', 'The Request is completed, so it cannot be changed.')),
    );
    const res = await post(app, { allow_reassign: 'true' }).expect(409);
    assert.match(
      res.text,
      /role="alert"[^]*The Request is completed, so it cannot be changed\. Reassigning was not changed\./,
    );
    assert.doesNotMatch(res.text, /Signers may now ask/, 'not said to be done');
    const found = section(res.text);
    assert.match(found, /name="allow_reassign"\s+value="true"\s+checked/, 'as sent');
    assert.match(found, /name="idempotency_key" value="key-1"/);
    assert.equal(calls(app).length, 1);
  });

  it('shows a refusal at allow_reassign beside the box, linked from the summary', async () => {
    const app = appWith(answers(apiProblem(422, 'invalid_body', 'The body is not valid.', 'allow_reassign')));
    const res = await post(app, { allow_reassign: 'true' }).expect(422);
    assert.match(res.text, /<p class="error" id="allow_reassign-error">is wrong<\/p>/);
    assert.match(
      res.text,
      /aria-describedby="allow_reassign-error allow_reassign-hint"\s+aria-invalid="true"/,
    );
    assert.match(
      res.text,
      /<a href="#allow_reassign">Signers may ask someone else to sign in their place: is wrong<\/a>/,
    );
  });

  it('names the change in the History', async () => {
    const changed = {
      id: '00000000-0000-4000-8000-000000000001',
      type: 'request.updated',
      created_at: '2030-01-02T10:00:00.000Z',
      site_id: 3,
      data: {
        request_id: ID,
        expires_at: null,
        reminder_interval_days: null,
        next_reminder_at: null,
        changed: ['allow_reassign'],
      },
    };
    const app = appWith({
      ...answers(undefined),
      [`GET /v1.1/requests/${ID}/events?order=desc&per_page=100`]: page([changed]),
    });
    const res = await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200);
    const history = /<section aria-labelledby="history-title">[^]*?<\/section>/.exec(res.text)?.[0] ?? '';
    assert.match(history, /<td>Whether signers may reassign changed<\/td>/);
    assert.doesNotMatch(history, /Expiry or reminders changed/);
  });
});
