import assert from 'node:assert/strict';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const PUT = 'PUT /v1.1/sites/3/signers/ann%40example.com';
const SENT = requestView('sent');
/** The same Request as a draft: its e-mail not sent yet. */
const DRAFT = {
  ...SENT,
  state: 'draft',
  sent_at: null,
  signers: SENT.signers.map((s) => ({ ...s, notifications: { ...s.notifications, email: 'pending' } })),
};
const SIGNER = {
  signer_id: 'ann@example.com',
  email: 'ann@example.com',
  mobile_number: null,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
};

/** **Correct contact** on a draft (ADR 3200): the Site's signer, through `PUT /v1.1/sites/:id/signers/:signer_id`. */
describe('web: correcting a draft’s signer in the Site’s details', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'draft-signer-contact',
    call: PUT,
    shown: DRAFT,
    hidden: { signer_id: 'ann@example.com', was_email: 'ann@example.com', was_mobile: '' },
  });

  it('offers the address and number only, says what it changes, and that nothing is sent yet', async () => {
    const page = await show(DRAFT);
    assert.match(page, /action="\/app\/requests\/[0-9a-f-]{36}\/draft-signer-contact" novalidate/);
    assert.match(page, /id="contact-0-email"\s+name="email"\s+type="email"\s+value="ann@example.com"/);
    assert.doesNotMatch(
      page,
      /name="send_to_email"|name="notify"/,
      'the Request’s channels are not changed here',
    );
    assert.match(page, /A mistyped address\?[^]*every other draft naming them/);
    assert.match(page, /<span class="state state-none">When sent<\/span>/);
    assert.doesNotMatch(page, />Sending</);
  });

  it('puts what was typed, never an empty detail, on the Request’s Site, and says whether anything changed', async () => {
    const app = appWith(answers({ ...SIGNER, email: 'ann.lee@example.com' }));
    const moved = await post(app, { email: ' ann.lee@example.com ', mobile_number: '' }).expect(303);
    assert.equal(moved.headers.location, `/app/requests/${ID}?done=draft-contact`);
    const same = await post(appWith(answers(SIGNER)), { email: 'ann@example.com' }).expect(303);
    assert.equal(same.headers.location, `/app/requests/${ID}?done=contact-same`);
    await post(app, { email: '', mobile_number: '2025550143' });
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.bearer]),
      [
        [{ signer: { email: 'ann.lee@example.com' } }, 'at_test'],
        [{ signer: { mobile_number: '2025550143' } }, 'at_test'],
      ],
    );
  });

  it('shows a refusal beside its field, the form open as typed', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The request body is invalid.', {
      'signer.email': 'must be an e-mail address',
    });
    const page = (await post(appWith(answers(refused)), { email: 'not an address' }).expect(422)).text;
    assert.match(page, /<details class="contact"\s+open>/);
    assert.match(page, /id="contact-0-email-error">must be an e-mail address</);
    assert.match(page, /value="not an address"\s+aria-invalid="true"/);
    assert.match(page, /The contact details of ann@example.com were not corrected\./);
  });

  it('writes nothing when the Request was sent after the page was shown, and says so', async () => {
    const app = appWith(answers(SIGNER, SENT));
    const page = (await post(app, { email: 'ann.lee@example.com' }).expect(409)).text;
    assert.match(page, /role="alert"[^]*The Request was sent since the page was shown/);
    assert.deepEqual(calls(app), [], 'no PUT');
  });
});
