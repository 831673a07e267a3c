import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, COOKIE, CSRF, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';
import { flat } from '../support/page-text.js';

const NEW_ID = '9c1f2e3d-4b5a-4c6d-8e7f-a0b1c2d3e4f5';
const AT = '2030-01-02T00:00:00.000Z';
const sent = { ...requestView('sent'), contracts: [4, 5] };
const inState = (state: string, testMode = false) => ({
  ...sent,
  state,
  test_mode: testMode,
  ...(state === 'draft' ? { sent_at: null } : {}),
  ...(state === 'cancelled' ? { cancelled_at: AT } : {}),
  ...(state === 'declined' ? { declined_at: AT } : {}),
  ...(state === 'expired' ? { expired_at: AT } : {}),
});
/** The new draft, as `POST /v1.1/requests/:id/copy` and then its page answer it: it names its source. */
const made = { ...inState('draft'), id: NEW_ID, created_at: AT, updated_at: AT, copied_from: ID };
const NOTICE =
  'The Request was copied to this new draft: check it, set an expiry if it needs one, and send it.';
const HINT =
  'Its state is final: copy it to a new draft to send it again, with the same contracts, signers and fields.';
const LIVE_HINT = 'makes a draft that is not in test mode: once it is sent, its messages are really sent';

const form = requestPageForm({
  action: 'copy',
  call: `POST /v1.1/requests/${ID}/copy`,
  shown: sent,
  hidden: { _csrf: CSRF },
});
/** Markup's text as read, without its tags. */
const textOf = (markup: string): string => flat(markup.replace(/<[^>]*>/g, '')).trim();
/** The page's links, as [href, text]. */
const linksOf = (markup: string): string[][] =>
  [...markup.matchAll(/<a href="([^"]*)"\s*>([\s\S]*?)<\/a\s*>/g)].map((m) => [m[1]!, textOf(m[2]!)]);
/** The "Copied from" fact of a page: its link, as [href, text]. */
const sourceOf = (text: string): string[] | undefined => {
  const dd = /<dt>Copied from<\/dt>\s*<dd>([\s\S]*?)<\/dd>/.exec(text)?.[1];
  return dd === undefined ? undefined : linksOf(dd)[0];
};
/** The copy forms of a page, in order: each one's markup. */
const copyForms = (text: string): string[] =>
  text
    .split(`action="/app/requests/${ID}/copy"`)
    .slice(1)
    .map((rest) => rest.slice(0, rest.indexOf('</form>')));
const keyOf = (markup: string) => /name="idempotency_key" value="([^"]*)"/.exec(markup)?.[1];
const buttonOf = (markup: string) => /<button[^>]*>\s*([^<]*?)\s*<\/button>/.exec(markup)?.[1];
/** The calls to the copy, as [body, Idempotency-Key]. */
const copies = (app: ReturnType<typeof appWith>) => form.calls(app).map((c) => [c.body, c.idempotencyKey]);

/** Copying a Request to a new draft, over the fake API. */
describe('web: a Request copied to a new draft', () => {
  for (const state of ['draft', 'sent', 'completed', 'declined', 'expired', 'cancelled'])
    it(`offers Copy to a new draft on a ${state} Request, with CSRF and its own key`, async () => {
      const text = await form.show(inState(state));
      const forms = copyForms(text);
      assert.equal(forms.length, 1, 'no live copy of a live Request');
      const [copy] = forms as [string];
      assert.match(copy, new RegExp(`name="_csrf" value="${CSRF}"`));
      assert.match(keyOf(copy) ?? '', /^[0-9a-f-]{36}$/);
      assert.match(copy, /<button type="submit" class="secondary"/);
      assert.equal(buttonOf(copy), 'Copy to a new draft');
      assert.doesNotMatch(copy, /name="test_mode"/);
      // Beside the other top actions.
      const actions = text.slice(text.indexOf('<div class="actions">'), text.indexOf('<dl class="facts">'));
      assert.ok(actions.includes(`action="/app/requests/${ID}/copy"`));
      const final = ['declined', 'expired', 'cancelled'].includes(state);
      assert.equal(flat(text).includes(HINT), final, 'the hint on a final state only');
      assert.equal(copy.includes('aria-describedby="copy-hint"'), final);
      assert.equal(flat(text).includes(LIVE_HINT), false);
    });

  it('offers Copy as a live draft on a test-mode Request only, each form with its own key', async () => {
    const text = await form.show(inState('cancelled', true));
    const forms = copyForms(text);
    assert.equal(forms.length, 2);
    const [copy, live] = forms as [string, string];
    assert.equal(buttonOf(copy), 'Copy to a new draft');
    assert.equal(buttonOf(live), 'Copy as a live draft');
    assert.match(live, /<input type="hidden" name="test_mode" value="false" \/>/);
    assert.doesNotMatch(copy, /name="test_mode"/);
    assert.match(live, new RegExp(`name="_csrf" value="${CSRF}"`));
    assert.match(live, /aria-describedby="copy-live-hint"/);
    assert.ok(flat(text).includes(LIVE_HINT));
    assert.ok(flat(text).includes(HINT));
    assert.notEqual(keyOf(copy), keyOf(live), 'a key of its own');
    assert.equal(copyForms(await form.show(inState('sent', true))).length, 2);
  });

  it('copies with POST /v1.1/requests/:id/copy, no body and the form’s key, and lands on the new draft saying so', async () => {
    const app = appWith({ ...form.answers(made), [`GET /v1.1/requests/${NEW_ID}`]: made });
    const done = await form.post(app, { idempotency_key: 'copy-key-1' }).expect(303);
    assert.equal(done.headers.location, `/app/requests/${NEW_ID}?done=copied`);
    assert.deepEqual(copies(app), [[undefined, 'copy-key-1']]);

    const landed = await request(app.callback).get(done.headers.location).set('Cookie', COOKIE).expect(200);
    assert.match(landed.text, /<h1>Request <code>9c1f2e3d<\/code> <span class="state state-draft">/);
    const notice = /<p class="success" role="status">([\s\S]*?)<\/p>/.exec(landed.text)?.[1] ?? '';
    assert.equal(textOf(notice), NOTICE);
    assert.deepEqual(linksOf(notice), [], 'the source is linked among the facts, not twice');
    assert.deepEqual(sourceOf(landed.text), [`/app/requests/${ID}`, `7b0e7d1c (Request ${ID})`]);
    const plain = await request(app.callback).get(`/app/requests/${NEW_ID}`).set('Cookie', COOKIE);
    assert.doesNotMatch(plain.text, /was copied to this new/, 'only just made');
    assert.deepEqual(sourceOf(plain.text), [`/app/requests/${ID}`, `7b0e7d1c (Request ${ID})`]);
  });

  it('sends { test_mode: false } from Copy as a live draft, and says the copy is live', async () => {
    const app = appWith({ ...form.answers(made), [`GET /v1.1/requests/${NEW_ID}`]: made });
    const done = await form.post(app, { idempotency_key: 'live-key', test_mode: 'false' }).expect(303);
    assert.equal(done.headers.location, `/app/requests/${NEW_ID}?done=copied-live`);
    assert.deepEqual(copies(app), [[{ test_mode: false }, 'live-key']]);
    const landed = await request(app.callback).get(done.headers.location).set('Cookie', COOKIE);
    assert.match(
      flat(landed.text),
      /The Request was copied to this new live draft: .*Once it is sent, its messages are really sent\./,
    );
  });

  it('sends no key when the form has none', async () => {
    const app = appWith(form.answers(made));
    await form.post(app, {}).expect(303);
    assert.deepEqual(copies(app), [[undefined, undefined]]);
  });

  it('shows an archived template refused in words on the source’s page, keeping the form’s key', async () => {
    const refusal = apiProblem(
      422,
      'validation_failed',
      'The Request cannot be copied',
      'contracts[1]',
      'contract template 5 is archived: unarchive it, or use another',
    );
    const app = appWith(form.answers(refusal, inState('cancelled', true)));
    const res = await form.post(app, { idempotency_key: 'copy-key-2' }).expect(422);
    assert.match(res.text, /<h1>Request <code>7b0e7d1c<\/code> <span class="state state-cancelled">/);
    const alert = flat(/<div class="errors" role="alert"[\s\S]*?<\/div>/.exec(res.text)?.[0] ?? '');
    assert.match(alert, /The Request cannot be copied\. No draft was made\./);
    assert.equal(
      textOf(/<li>[\s\S]*?<\/li>/.exec(alert)?.[0] ?? ''),
      'Contract template 5 is archived: unarchive it, or use another.',
    );
    assert.deepEqual(linksOf(alert), [['/app/templates/5', 'Contract template 5']]);
    assert.doesNotMatch(res.text, /contracts\[1\]/, 'no API path shown');
    assert.doesNotMatch(res.text, /class="success"/);
    const [copy, live] = copyForms(res.text) as [string, string];
    assert.equal(keyOf(copy), 'copy-key-2', 'the refused form’s key kept');
    assert.match(keyOf(live) ?? '', /^[0-9a-f-]{36}$/);
  });

  it('names the contract of an error that does not, and gives a new key once the API used it', async () => {
    const refusal = apiProblem(422, 'idempotency_key_reused', 'The key was used for another request.', {
      'contracts[0]': 'is no longer published',
    });
    const res = await form.post(appWith(form.answers(refusal, inState('expired', true))), {
      idempotency_key: 'live-key-2',
      test_mode: 'false',
    });
    assert.equal(res.status, 422);
    const alert = /<div class="errors" role="alert"[\s\S]*?<\/div>/.exec(res.text)?.[0] ?? '';
    assert.equal(
      textOf(/<li>[\s\S]*?<\/li>/.exec(alert)?.[0] ?? ''),
      'Contract template 4 (the first contract): is no longer published.',
    );
    assert.deepEqual(linksOf(alert), [['/app/templates/4', 'Contract template 4']]);
    const [, live] = copyForms(res.text) as [string, string];
    assert.notEqual(keyOf(live), 'live-key-2');
    assert.match(keyOf(live) ?? '', /^[0-9a-f-]{36}$/);
  });

  it('shows a test-only token’s refusal, keeping the live form’s key', async () => {
    const refusal = apiProblem(403, 'test_mode_only_token', 'This token makes test-mode Requests only.');
    const res = await form.post(appWith(form.answers(refusal, inState('sent', true))), {
      idempotency_key: 'live-key-3',
      test_mode: 'false',
    });
    assert.equal(res.status, 403);
    assert.match(
      res.text,
      /role="alert"[\s\S]*This token makes test-mode Requests only\. No draft was made\./,
    );
    const [copy, live] = copyForms(res.text) as [string, string];
    assert.equal(keyOf(live), 'live-key-3');
    assert.notEqual(keyOf(copy), 'live-key-3');
  });

  it('tells nothing on a page the notice does not fit: not a copy, or not a draft any more', async () => {
    for (const [view, query] of [
      [{ ...made, copied_from: null }, '?done=copied'],
      [{ ...made, copied_from: null }, '?done=copied-live'],
      [{ ...made, state: 'sent', sent_at: AT }, '?done=copied'],
    ] as const) {
      const app = appWith({ ...form.answers(undefined), [`GET /v1.1/requests/${view.id}`]: view });
      const text = (await request(app.callback).get(`/app/requests/${view.id}${query}`).set('Cookie', COOKIE))
        .text;
      assert.doesNotMatch(text, /was copied to this new/, query);
    }
  });

  it('names a copy’s source among its facts on every visit (ADR 3410), and no source on a Request not copied', async () => {
    for (const view of [made, { ...made, state: 'sent', sent_at: AT }, { ...made, state: 'completed' }]) {
      const app = appWith({ ...form.answers(undefined), [`GET /v1.1/requests/${NEW_ID}`]: view });
      const text = (await request(app.callback).get(`/app/requests/${NEW_ID}`).set('Cookie', COOKIE)).text;
      const facts = /<dl class="facts">[\s\S]*?<\/dl>/.exec(text)?.[0] ?? '';
      assert.match(
        flat(facts),
        /<dt>Copied from<\/dt> <dd> Request <a href="\/app\/requests\/7b0e7d1c-/,
        view.state,
      );
      assert.deepEqual(sourceOf(text), [`/app/requests/${ID}`, `7b0e7d1c (Request ${ID})`]);
    }
    const text = await form.show(inState('cancelled'));
    assert.doesNotMatch(text, /Copied from/);
    assert.equal(sourceOf(text), undefined);
  });

  it('lists a Request’s copies among its facts (ADR 3410), newest first, saying how many more; none when it has none', async () => {
    const copiesPath = `GET /v1.1/sites/${sent.site_id}/requests?copied_from=${ID}&per_page=10`;
    const copy = (id: string, state: string, title: string | null) => ({ ...made, id, state, title });
    const app = appWith({
      ...form.answers(undefined),
      [copiesPath]: {
        page: 1,
        per_page: 10,
        count: 2,
        total_count: 12,
        has_more: true,
        data: [
          copy(NEW_ID, 'sent', 'Lease, again'),
          copy('1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f6', 'draft', null),
        ],
      },
    });
    const text = (await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE)).text;
    const dd = /<dt>Copied into<\/dt>\s*<dd>([\s\S]*?)<\/dd>/.exec(text)?.[1] ?? '';
    assert.deepEqual(linksOf(dd), [
      [`/app/requests/${NEW_ID}`, 'Lease, again'],
      ['/app/requests/1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f6', 'Request 1c2d3e4f'],
    ]);
    assert.match(textOf(dd), /sent .* draft and 10 older$/);
    // No copies, or a list the API would not give: no fact, and the page still shows.
    assert.doesNotMatch(await form.show(sent), /<dt>Copied into<\/dt>/);
  });

  it('refuses a copy form without its anti-forgery token, asking the API nothing', async () => {
    const app = appWith(form.answers(made));
    await form.post(app, { _csrf: 'forged', idempotency_key: 'k' }).expect(403);
    await request(app.callback)
      .post(`/app/requests/${ID}/copy`)
      .set('Cookie', COOKIE)
      .set('Origin', 'https://elsewhere.example')
      .type('form')
      .send({ _csrf: CSRF })
      .expect(403);
    assert.deepEqual(copies(app), []);
  });
});
