import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';
import { answers, COOKIE, CREATE, created, FILLED, post as postNew } from '../support/request-new.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const TEXT = 'Hello Ann,\nplease sign by Friday.';
const DRAFT = { ...requestView('sent'), state: 'draft', sent_at: null, message: TEXT };
const BARE_DRAFT = { ...DRAFT, message: null };

/** A Request's message to its signers (ADR 3380), over the fake API. */
describe('web: a Request’s message to its signers', () => {
  describe('on New Request', () => {
    it('offers an optional, labelled field of at most 2,000 characters', async () => {
      const page = await request(appWith(answers()).callback)
        .get('/app/requests/new')
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(page.text, /<label for="message">Message to the signers \(optional\)<\/label>/);
      assert.match(page.text, /id="message-hint">\s*Shown in their invitation and reminder e-mails/);
      assert.match(page.text, /Up to\s+2,000 characters\./);
      assert.match(
        page.text,
        /<textarea\s+id="message"\s+name="message"\s+rows="4"\s+maxlength="2000"[^>]*aria-describedby="message-hint"/,
      );
    });

    it('sends the message only when one was typed, trimmed, its line breaks kept', async () => {
      const app = appWith(answers());
      await postNew(app, { ...FILLED, message: '  Hello Ann,\r\nplease sign.\r\n\r\n' }).expect(303);
      assert.equal(created(app).message, 'Hello Ann,\nplease sign.');
      for (const blank of [undefined, '', ' \r\n\t ']) {
        const none = appWith(answers());
        await postNew(none, blank === undefined ? FILLED : { ...FILLED, message: blank }).expect(303);
        assert.equal('message' in created(none), false, JSON.stringify(blank));
      }
    });

    it('shows the API’s refusal at `message` beside the field, with what was typed', async () => {
      const app = appWith(
        answers({
          [CREATE]: apiProblem(422, 'invalid_body', 'The body is not valid.', {
            message: 'must not hold control characters other than line breaks and tabs',
          }),
        }),
      );
      const res = await postNew(app, { ...FILLED, message: 'Hi <b>Ann</b>\nline 2' }).expect(422);
      assert.match(
        res.text,
        /id="message-error">must not hold control characters other than line breaks and tabs</,
      );
      assert.match(res.text, /aria-describedby="message-hint message-error"\s+aria-invalid="true"/);
      assert.match(res.text, /<a href="#message">Message to the signers: must not hold control characters/);
      assert.match(res.text, />\nHi &lt;b&gt;Ann&lt;\/b&gt;\nline 2<\/textarea/);
    });
  });

  describe('on a Request’s page', () => {
    const {
      answers: pageAnswers,
      show,
      post,
      calls,
    } = requestPageForm({
      action: 'message',
      call: PATCH,
      shown: DRAFT,
      hidden: { idempotency_key: 'key-1', was_message: TEXT },
    });

    it('shows the message as text, its line breaks kept, and no form once sent', async () => {
      const page = await show({ ...requestView('sent'), message: '<b>hi</b>\nline 2' });
      assert.match(page, /<h2 id="message-title">Message to the signers<\/h2>/);
      assert.match(
        page,
        /<div class="signer-message" id="message-text">&lt;b&gt;hi&lt;\/b&gt;\nline 2<\/div>/,
      );
      assert.doesNotMatch(page, /<b>hi<\/b>/);
      assert.doesNotMatch(page, /action="\/app\/requests\/[^"]+\/message"/, 'fixed once sent');
      // The message's own field (a replacement's note to its new signer has another id).
      assert.doesNotMatch(page, /id="message"/);
      assert.doesNotMatch(await show(requestView('sent')), /message-title/, 'no message: no section');
    });

    it('offers a draft’s form prefilled, with Remove, or empty to add one', async () => {
      const page = await show(DRAFT);
      assert.match(page, /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/message" novalidate>/);
      assert.match(page, /<label for="message">Change the message<\/label>/);
      assert.match(
        page,
        /<textarea\s+id="message"\s+name="message"[^>]*>\nHello Ann,\nplease sign by Friday\.<\/textarea/,
      );
      assert.match(page, /name="was_message" value="Hello Ann,\nplease sign by Friday\."/);
      assert.match(page, /<button type="submit">Save message<\/button>/);
      assert.match(
        page,
        /<button type="submit" name="remove" value="1" class="danger">\s*Remove the message/,
      );
      const bare = await show(BARE_DRAFT);
      assert.match(bare, /<h2 id="message-title">Message to the signers<\/h2>/);
      assert.match(bare, /<label for="message">Add a message<\/label>/);
      assert.match(bare, /<textarea\s+id="message"\s+name="message"[^>]*>\n<\/textarea/);
      assert.doesNotMatch(bare, /Remove the message/);
    });

    it('sends the new text with the form’s Idempotency-Key, then says so', async () => {
      const app = appWith(pageAnswers({ ...DRAFT, message: 'New text\nline 2' }));
      const res = await post(app, { message: ' New text\r\nline 2 ' }).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=message`);
      assert.deepEqual(
        calls(app).map((c) => [c.body, c.idempotencyKey]),
        [[{ message: 'New text\nline 2' }, 'key-1']],
      );
      const added = appWith(pageAnswers(DRAFT, BARE_DRAFT));
      await post(added, { was_message: '', message: TEXT }).expect(303);
      assert.deepEqual(calls(added)[0]?.body, { message: TEXT });
      const shown = await request(added.callback)
        .get(`/app/requests/${ID}?done=message`)
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(shown.text, /role="status">The message to the signers was saved/);
    });

    it('removes it with null: by Remove the message, or saved empty', async () => {
      const app = appWith(pageAnswers(BARE_DRAFT));
      const res = await post(app, { message: TEXT, remove: '1' }).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=message-removed`);
      const emptied = appWith(pageAnswers(BARE_DRAFT));
      await post(emptied, { message: '  \r\n ' }).expect(303);
      assert.deepEqual(
        [...calls(app), ...calls(emptied)].map((c) => c.body),
        [{ message: null }, { message: null }],
      );
    });

    it('asks nothing when the message is the one shown', async () => {
      const app = appWith(pageAnswers(undefined));
      const res = await post(app, { message: 'Hello Ann,\r\nplease sign by Friday.\n' }).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=message-same`);
      assert.deepEqual(calls(app), []);
    });

    it('shows a refusal beside the field, as typed, and that nothing was changed', async () => {
      const app = appWith(
        pageAnswers(
          apiProblem(422, 'invalid_body', 'Invalid body', { message: 'must be at most 2000 characters' }),
        ),
      );
      const res = await post(app, { message: 'Too <long>' }).expect(422);
      assert.match(res.text, /id="message-error">must be at most 2000 characters</);
      assert.match(res.text, /aria-invalid="true"/);
      assert.match(res.text, /The message to the signers was not changed\./);
      assert.match(res.text, /<a href="#message">Message: must be at most 2000 characters<\/a>/);
      assert.match(res.text, />\nToo &lt;long&gt;<\/textarea/);
      assert.match(res.text, /name="idempotency_key" value="key-1"/);
    });
  });
});
