import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';
import { answers, COOKIE, CREATE, created, FILLED, post as postNew } from '../support/request-new.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const SUBJECT = 'Your lease for 4 Quay Street';
const DRAFT = { ...requestView('sent'), state: 'draft', sent_at: null, subject: SUBJECT };
const BARE_DRAFT = { ...DRAFT, subject: null };
const CONTROL = 'must be one line, without control characters';

/** A Request's e-mail subject (ADR 3400), on New Request and on its page, over the fake API. */
describe('web: a Request’s e-mail subject', () => {
  describe('on New Request', () => {
    it('offers an optional one-line field of at most 200 characters, right before the message', async () => {
      const page = await request(appWith(answers()).callback)
        .get('/app/requests/new')
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(page.text, /<label for="subject">E-mail subject \(optional\)<\/label>/);
      assert.match(page.text, /id="subject-hint">\s*Replaces the usual subject of the invitation e-mails;/);
      assert.match(page.text, /reminders put “Reminder:” before it\. Up to\s+200 characters\./);
      assert.match(
        page.text,
        /<input\s+type="text"\s+id="subject"\s+name="subject"\s+maxlength="200"\s+value=""\s+aria-describedby="subject-hint"/,
      );
      const at = page.text.indexOf('id="subject"');
      assert.ok(at > 0 && at < page.text.indexOf('id="message"'), 'before the message');
    });

    it('sends the subject only when one was typed, trimmed', async () => {
      const app = appWith(answers());
      await postNew(app, { ...FILLED, subject: `  ${SUBJECT} ` }).expect(303);
      assert.equal(created(app).subject, SUBJECT);
      for (const blank of [undefined, '', '   ']) {
        const none = appWith(answers());
        await postNew(none, blank === undefined ? FILLED : { ...FILLED, subject: blank }).expect(303);
        assert.equal('subject' in created(none), false, JSON.stringify(blank));
      }
    });

    it('shows the API’s refusal at `subject` beside the field and in the summary, as typed', async () => {
      const refused = apiProblem(422, 'invalid_body', 'The body is not valid.', { subject: CONTROL });
      const app = appWith(answers({ [CREATE]: refused }));
      const res = await postNew(app, { ...FILLED, subject: 'Lease <b>4</b>' }).expect(422);
      assert.match(res.text, new RegExp(`id="subject-error">${CONTROL}<`));
      assert.match(res.text, /aria-describedby="subject-hint subject-error"\s+aria-invalid="true"/);
      assert.match(res.text, new RegExp(`<a href="#subject">E-mail subject: ${CONTROL}</a>`));
      assert.match(res.text, /name="subject"[^>]*value="Lease &lt;b&gt;4&lt;\/b&gt;"/);
    });
  });

  describe('on a Request’s page', () => {
    const {
      answers: pageAnswers,
      show,
      post,
      calls,
    } = requestPageForm({
      action: 'subject',
      call: PATCH,
      shown: DRAFT,
      hidden: { idempotency_key: 'key-1', was_subject: SUBJECT },
    });
    /** The page's E-mail subject section. */
    const section = (page: string) =>
      /<section class="panel" aria-labelledby="subject-title">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';

    it('shows the subject as text, and no form once sent; nothing when none', async () => {
      const page = section(await show({ ...requestView('sent'), subject: '<b>Lease</b>' }));
      assert.match(page, /<h2 id="subject-title">E-mail subject<\/h2>/);
      assert.match(page, /<p id="subject-text">&lt;b&gt;Lease&lt;\/b&gt;<\/p>/);
      assert.doesNotMatch(page, /<form|name="subject"/, 'fixed once sent');
      assert.equal(section(await show(requestView('sent'))), '', 'no subject: no section');
    });

    it('offers a draft’s form prefilled, with Remove, or empty to add one, before the message', async () => {
      const whole = await show(DRAFT);
      const page = section(whole);
      assert.ok(whole.indexOf('id="subject-title"') < whole.indexOf('id="message-title"'));
      assert.match(page, /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/subject" novalidate>/);
      assert.match(page, /<label for="subject">Change the subject<\/label>/);
      assert.match(page, new RegExp(`name="was_subject" value="${SUBJECT}"`));
      assert.match(page, new RegExp(`id="subject"[^>]*value="${SUBJECT}"`));
      assert.match(
        page,
        /<button type="submit" name="remove" value="1" class="danger">\s*Remove the subject/,
      );
      const bare = section(await show(BARE_DRAFT));
      assert.match(bare, /None: the invitation e-mails have the usual subject\./);
      assert.match(bare, /<label for="subject">Add a subject<\/label>/);
      assert.doesNotMatch(bare, /Remove the subject/);
    });

    it('sends the new subject with the form’s key, removes it with null, asks nothing when the same', async () => {
      const app = appWith(pageAnswers({ ...DRAFT, subject: 'New one' }));
      const res = await post(app, { subject: ' New one ' }).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=subject`);
      assert.deepEqual(
        calls(app).map((c) => [c.body, c.idempotencyKey]),
        [[{ subject: 'New one' }, 'key-1']],
      );
      const shown = await request(app.callback)
        .get(`/app/requests/${ID}?done=subject`)
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(shown.text, /role="status">The e-mail subject was saved/);
      const removed = appWith(pageAnswers(BARE_DRAFT));
      const gone = await post(removed, { subject: SUBJECT, remove: '1' }).expect(303);
      assert.equal(gone.headers.location, `/app/requests/${ID}?done=subject-removed`);
      await post(removed, { subject: '  ' }).expect(303);
      assert.deepEqual(
        calls(removed).map((c) => c.body),
        [{ subject: null }, { subject: null }],
      );
      const same = appWith(pageAnswers(undefined));
      const kept = await post(same, { subject: ` ${SUBJECT}` }).expect(303);
      assert.equal(kept.headers.location, `/app/requests/${ID}?done=subject-same`);
      assert.deepEqual(calls(same), []);
    });

    it('shows a refusal (409 once sent, 422) beside the field, as typed, and that nothing was changed', async () => {
      const sent = apiProblem(409, 'request_not_draft', 'The Request has been sent: its subject is fixed.');
      const late = await post(appWith(pageAnswers(sent)), { subject: 'Too late' }).expect(409);
      assert.match(late.text, /its subject is fixed\. The e-mail subject was not changed\./);
      const app = appWith(pageAnswers(apiProblem(422, 'invalid_body', 'Invalid body', { subject: CONTROL })));
      const res = await post(app, { subject: 'Bell <x>' }).expect(422);
      assert.match(res.text, new RegExp(`id="subject-error">${CONTROL}<`));
      assert.match(res.text, /The e-mail subject was not changed\./);
      assert.match(res.text, new RegExp(`<a href="#subject">E-mail subject: ${CONTROL}</a>`));
      assert.match(res.text, /id="subject"[^>]*value="Bell &lt;x&gt;"/);
      assert.match(res.text, /name="idempotency_key" value="key-1"/);
    });
  });
});
