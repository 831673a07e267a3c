import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';
import { answers, COOKIE, CREATE, created, FILLED, post as postNew } from '../support/request-new.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const TITLE = 'Lease — 4 Quay Street';
const DRAFT = { ...requestView('sent'), state: 'draft', sent_at: null, title: TITLE };
const BARE_DRAFT = { ...DRAFT, title: null };
const SENT = { ...requestView('sent'), title: TITLE };

/** A Request's title (ADR 3390) on New Request and on its page, over the fake API. */
describe('web: a Request’s title', () => {
  describe('on New Request', () => {
    it('offers an optional, labelled field of at most 255 characters, before the templates', async () => {
      const page = await request(appWith(answers()).callback)
        .get('/app/requests/new')
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(page.text, /<label for="title">Title \(optional\)<\/label>/);
      assert.match(
        page.text,
        /id="title-hint">\s*Your own name for this Request, shown in your lists; signers do not see it\./,
      );
      assert.match(
        page.text,
        /<input\s+type="text"\s+id="title"\s+name="title"\s+maxlength="255"\s+value=""\s+aria-describedby="title-hint"/,
      );
      assert.ok(
        page.text.indexOf('id="title"') < page.text.indexOf('name="contract_11"'),
        'before the templates',
      );
    });

    it('sends the title only when one was typed, trimmed', async () => {
      const app = appWith(answers());
      await postNew(app, { ...FILLED, title: `  ${TITLE} ` }).expect(303);
      assert.equal(created(app).title, TITLE);
      for (const blank of [undefined, '', '   ']) {
        const none = appWith(answers());
        await postNew(none, blank === undefined ? FILLED : { ...FILLED, title: blank }).expect(303);
        assert.equal('title' in created(none), false, JSON.stringify(blank));
      }
    });

    it('shows the API’s refusal at `title` beside the field, with what was typed', async () => {
      const app = appWith(
        answers({
          [CREATE]: apiProblem(422, 'invalid_body', 'The body is not valid.', {
            title: 'must be one line, without control characters',
          }),
        }),
      );
      const res = await postNew(app, { ...FILLED, title: 'Lease <b>4</b>' }).expect(422);
      assert.match(res.text, /id="title-error">must be one line, without control characters</);
      assert.match(res.text, /aria-describedby="title-hint title-error"\s+aria-invalid="true"/);
      assert.match(res.text, /<a href="#title">Title: must be one line, without control characters/);
      assert.match(res.text, /name="title"\s+maxlength="255"\s+value="Lease &lt;b&gt;4&lt;\/b&gt;"/);
    });
  });

  describe('on a Request’s page', () => {
    const {
      answers: pageAnswers,
      show,
      post,
      calls,
    } = requestPageForm({
      action: 'title',
      call: PATCH,
      shown: DRAFT,
      hidden: { idempotency_key: 'key-1', was_title: TITLE },
    });

    it('shows the title, escaped, in the heading with the short id', async () => {
      const page = await show({ ...SENT, title: 'Lease <4> & co' });
      assert.match(
        page,
        /<h1>Lease &lt;4&gt; &amp; co <span class="hint">Request <code>[0-9a-f]{8}<\/code><\/span>/,
      );
      assert.match(page, /<title>Lease &lt;4&gt; &amp; co \(Request [0-9a-f]{8}\)/);
      assert.doesNotMatch(page, /<4>/);
      const bare = await show(requestView('sent'));
      assert.match(bare, /<h1>Request <code>[0-9a-f]{8}<\/code> <span class="state/);
    });

    it('offers a draft’s and a sent Request’s form prefilled, with Remove, or empty to add one', async () => {
      for (const shown of [DRAFT, SENT]) {
        const page = await show(shown);
        assert.match(page, /<h2 id="title-heading">Title<\/h2>/);
        assert.match(page, /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/title" novalidate>/);
        assert.match(page, /<label for="title">Change the title<\/label>/);
        assert.match(page, /name="title"\s+maxlength="255"\s+value="Lease — 4 Quay Street"/);
        assert.match(page, /name="was_title" value="Lease — 4 Quay Street"/);
        assert.match(page, /<button type="submit">Save title<\/button>/);
        assert.match(page, /<button type="submit" name="remove" value="1" class="danger">Remove the title/);
      }
      const bare = await show(BARE_DRAFT);
      assert.match(bare, /<label for="title">Add a title<\/label>/);
      assert.match(bare, /name="title"\s+maxlength="255"\s+value=""/);
      assert.doesNotMatch(bare, /Remove the title/);
    });

    it('shows a closed Request’s title without a form', async () => {
      for (const state of ['completed', 'cancelled', 'expired', 'declined'] as const) {
        const page = await show({ ...requestView('completed'), state, title: TITLE });
        assert.match(page, /<h1>Lease — 4 Quay Street <span class="hint">Request/, state);
        assert.doesNotMatch(page, /action="\/app\/requests\/[^"]+\/title"/, state);
        assert.doesNotMatch(page, /name="title"|title-heading/, state);
      }
    });

    it('sends the new title, trimmed, with the form’s Idempotency-Key, then says so', async () => {
      const app = appWith(pageAnswers({ ...DRAFT, title: 'Lease — 5 Quay Street' }));
      const res = await post(app, { title: '  Lease — 5 Quay Street ' }).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=title`);
      assert.deepEqual(
        calls(app).map((c) => [c.body, c.idempotencyKey]),
        [[{ title: 'Lease — 5 Quay Street' }, 'key-1']],
      );
      const added = appWith(pageAnswers(SENT, { ...SENT, title: null }));
      await post(added, { was_title: '', title: TITLE }).expect(303);
      assert.deepEqual(calls(added)[0]?.body, { title: TITLE });
      const shown = await request(added.callback)
        .get(`/app/requests/${ID}?done=title`)
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(shown.text, /role="status">The title was saved/);
    });

    it('removes it with null: by Remove the title, or saved empty', async () => {
      const app = appWith(pageAnswers(BARE_DRAFT));
      const res = await post(app, { title: TITLE, remove: '1' }).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=title-removed`);
      const emptied = appWith(pageAnswers(BARE_DRAFT));
      await post(emptied, { title: '   ' }).expect(303);
      assert.deepEqual(
        [...calls(app), ...calls(emptied)].map((c) => c.body),
        [{ title: null }, { title: null }],
      );
    });

    it('asks nothing when the title is the one shown', async () => {
      const app = appWith(pageAnswers(undefined));
      const res = await post(app, { title: ` ${TITLE}  ` }).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=title-same`);
      assert.deepEqual(calls(app), []);
    });

    it('shows a refusal beside the field, as typed, and that nothing was changed', async () => {
      const app = appWith(
        pageAnswers(
          apiProblem(409, 'invalid_state', 'The Request is completed.', { title: 'cannot change' }),
        ),
      );
      const res = await post(app, { title: 'New <title>' }).expect(409);
      assert.match(res.text, /id="title-error">cannot change</);
      assert.match(res.text, /aria-invalid="true"/);
      assert.match(res.text, /The Request is completed\. The title was not changed\./);
      assert.match(res.text, /<a href="#title">Title: cannot change<\/a>/);
      assert.match(res.text, /value="New &lt;title&gt;"/);
      assert.match(res.text, /name="idempotency_key" value="key-1"/);
    });
  });
});
