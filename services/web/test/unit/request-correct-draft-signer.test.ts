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
    hidden: {
      signer_id: 'ann@example.com',
      was_email: 'ann@example.com',
      was_mobile: '',
      was_send_to_email: 'true',
      // The form as shown: the address prefilled, e-mail ticked.
      email: 'ann@example.com',
      send_to_email: 'true',
    },
  });

  it('offers the address, number and channels, nothing to send yet, and says what each changes', async () => {
    const page = await show(DRAFT);
    assert.match(page, /action="\/app\/requests\/[0-9a-f-]{36}\/draft-signer-contact" novalidate/);
    assert.match(page, /id="contact-0-email"\s+name="email"\s+type="email"\s+value="ann@example.com"/);
    assert.match(page, /id="contact-0-by-email"\s+name="send_to_email"\s+value="true"\s+checked/);
    assert.doesNotMatch(page, /name="notify"/, 'nothing is live to send');
    assert.match(
      page,
      /A mistyped address, or the wrong channel\?[^]*every other draft naming them[^]*the channels this draft/,
    );
    assert.match(page, /<span class="state state-none">When sent<\/span>/);
    assert.doesNotMatch(page, />Sending</);
  });

  it('changes the draft’s channels on the Request alone, after any address, with the form’s key', async () => {
    const PATCH = `PATCH /v1.1/requests/${ID}/signers/ann%40example.com`;
    const moved = (view: typeof DRAFT) => ({
      ...view,
      signers: view.signers.map((s) => ({ ...s, send_to: { email: false, mobile_number: true } })),
    });
    const app = appWith({ ...answers(SIGNER), [PATCH]: moved(DRAFT) });
    const only = await post(app, { send_to_email: '', send_to_sms: 'true', idempotency_key: 'key-1' }).expect(
      303,
    );
    assert.equal(only.headers.location, `/app/requests/${ID}?done=draft-channels`);
    const both = await post(app, {
      email: 'ann.lee@example.com',
      send_to_email: '',
      send_to_sms: 'true',
      was_email: 'ann@example.org',
    }).expect(303);
    assert.equal(both.headers.location, `/app/requests/${ID}?done=draft-contact`);
    assert.deepEqual(
      app.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.body, c.idempotencyKey]),
      [
        ['PATCH', { send_to: { email: false, mobile_number: true } }, 'key-1'],
        ['PUT', { signer: { email: 'ann.lee@example.com' } }, undefined],
        ['PATCH', { send_to: { email: false, mobile_number: true } }, undefined],
      ],
    );
    const refused = apiProblem(409, 'invalid_state', 'Cannot update_signer a Request that is sent.');
    const page = (
      await post(appWith({ ...answers(SIGNER), [PATCH]: refused }), { send_to_sms: 'true' }).expect(409)
    ).text;
    assert.match(page, /role="alert"[^]*Cannot update_signer a Request that is sent\./);
  });

  it('puts what changed on the Request’s Site: a value typed, a field cleared as null; says whether anything did', async () => {
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
        [{ signer: { email: null, mobile_number: '2025550143' } }, 'at_test'],
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
