import assert from 'node:assert/strict';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const POST = `POST /v1.1/requests/${ID}/signers/ann%40example.com/replace`;

/** Replace signer…'s note to the new signer (ADR 3550, amended): said in their invitation. */
describe('web: a note to the new signer of a replacement', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'replace-signer',
    call: POST,
    shown: requestView('sent'),
    hidden: { replaced: 'ann@example.com', signer_id: 'bob', idempotency_key: 'k' },
  });

  it('offers an optional, labelled and bounded note in the disclosure', async () => {
    const page = await show(requestView('sent'));
    assert.match(page, /<label for="replace-0-message">Message to the new signer \(optional\)<\/label>/);
    assert.match(page, /<p class="hint" id="replace-0-message-hint">\s*Why they are asked to sign/);
    assert.match(
      page,
      /<textarea\s+id="replace-0-message"\s+name="message"\s+rows="3"\s+maxlength="2000"[^>]*aria-describedby="replace-0-message-hint"/,
    );
  });

  it('posts the note as the API takes it, and nothing when left blank', async () => {
    const app = appWith(answers(requestView('sent')));
    await post(app, { message: '  Ann is away:\r\nplease sign for her.  ' }).expect(303);
    await post(app, { message: ' \r\n ' }).expect(303);
    assert.deepEqual(
      calls(app).map((c) => (c.body as { message?: string }).message),
      ['Ann is away:\nplease sign for her.', undefined],
    );
  });

  it('shows a refusal of the note beside it, as typed', async () => {
    const refused = apiProblem(422, 'validation_failed', 'The body is not valid.', {
      message: 'must be plain text',
    });
    const res = await post(appWith(answers(refused)), { message: 'Dear <b>Bob</b>' }).expect(422);
    assert.match(res.text, /<p class="error" id="replace-0-message-error">must be plain text<\/p>/);
    assert.match(
      res.text,
      /aria-describedby="replace-0-message-hint replace-0-message-error"\s+aria-invalid="true"\s*>\s*Dear &lt;b&gt;Bob&lt;\/b&gt;<\/textarea/,
    );
    assert.match(res.text, /<a href="#replace-0-message">Message to the new signer: must be plain text<\/a>/);
  });
});
