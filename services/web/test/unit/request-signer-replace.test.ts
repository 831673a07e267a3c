import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, COOKIE, ORIGIN, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { flat } from '../support/page-text.js';
import { requestPageForm } from '../support/request-page.js';

const POST = `POST /v1.1/requests/${ID}/signers/ann%40example.com/replace`;
const AT = '2030-01-01T00:00:00.000Z';

/** The sent Request with its signers as `signers` change ann's, one row each. */
const withSigners = (state: string, ...signers: Record<string, unknown>[]) => {
  const view = requestView('sent');
  return { ...view, state, signers: signers.map((s) => ({ ...view.signers[0]!, ...s })) };
};

/** The Request after ann was replaced by bob: bob in her place, pending, with a new link. */
const REPLACED = withSigners('sent', {
  signer_id: 'bob@example.com',
  signer_ref: 'ref-bob',
  email: 'bob@example.com',
  request_url: 'http://127.0.0.1:8080/sign/bob',
  viewed_at: null,
});

describe('web: replacing a signer of a sent Request who has not signed', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'replace-signer',
    call: POST,
    shown: requestView('sent'),
    hidden: { replaced: 'ann@example.com' },
  });

  it('offers the disclosure, with its own Idempotency-Key, to a pending signer of a sent Request only', async () => {
    const page = await show(requestView('sent'));
    assert.match(
      page,
      /<details class="replace"\s*>\s*<summary>Replace signer<span class="visually-hidden"> ann@example.com<\/span>…<\/summary>/,
    );
    assert.match(
      page,
      /action="\/app\/requests\/[0-9a-f-]{36}\/replace-signer" novalidate>\s*<input type="hidden" name="_csrf" value="[^"]+"/,
    );
    assert.match(page, /name="replaced" value="ann@example.com"/);
    assert.match(
      page,
      /name="replaced" value="ann@example.com" \/>\s*<input type="hidden" name="idempotency_key" value="[0-9a-f-]{36}"/,
    );
    assert.match(
      flat(page),
      /Someone else signs in their place: the fields that were theirs become the new signer’s, and the replaced signer’s link stops working\./,
    );
    assert.match(page, /<label for="replace-0-signer-id">New signer ID<\/label>/);
    assert.match(
      page,
      /id="replace-0-signer-id"\s+name="signer_id"\s+type="text"\s+value=""\s+autocomplete="off" required/,
    );
    assert.match(page, /<label for="replace-0-email">E-mail address<\/label>/);
    assert.match(page, /id="replace-0-email"\s+name="email"\s+type="email"\s+value=""/);
    assert.match(page, /<label for="replace-0-mobile">Mobile number \(US\)<\/label>/);
    assert.match(page, /id="replace-0-mobile-hint">10 digits, or 1 and 10 digits\.</);
    assert.match(page, /id="replace-0-mobile"\s+name="mobile_number"\s+type="tel"\s+value=""/);
    assert.match(
      page,
      /id="replace-0-by-email"\s+name="send_to_email"\s+value="true"\s+checked\s+\/>\s+Send by e-mail</,
      'ann’s channels',
    );
    assert.match(page, /id="replace-0-by-sms"\s+name="send_to_sms"\s+value="true"\s+\/>\s+Send by SMS</);
    assert.match(
      page,
      /id="replace-0-notify"\s+name="notify"\s+value="true"\s+checked\s+\/>\s+Send them the link now, and tell the replaced signer</,
    );
    assert.match(
      page,
      /<button type="submit" class="secondary">\s*Replace signer<span class="visually-hidden"> ann@example.com<\/span>/,
    );

    const two = await show(withSigners('sent', {}, { signer_id: 'bob', signer_ref: 'ref-bob', email: null }));
    assert.equal(two.match(/<details class="replace"/g)?.length, 2, 'one in each pending signer’s row');
    assert.match(two, /id="replace-1-signer-id"/);
    const ids = [...two.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      'every id once on the page',
    );

    const signed = withSigners(
      'sent',
      { state: 'signed', signed_at: AT },
      { signer_id: 'bob', signer_ref: 'b' },
    );
    assert.equal((await show(signed)).match(/<details class="replace"/g)?.length, 1, 'not for who signed');
    for (const state of ['draft', 'completed', 'cancelled', 'expired'])
      assert.doesNotMatch(
        await show(withSigners(state, {})),
        /<details class="replace"/,
        `not on a ${state} one`,
      );
  });

  it('posts the new signer as typed, only what was filled in, with the form’s Idempotency-Key', async () => {
    const app = appWith(answers(REPLACED));
    await post(app, {
      signer_id: ' bob@example.com ',
      email: '',
      mobile_number: '',
      send_to_email: 'true',
      notify: 'true',
      idempotency_key: 'key-1',
    }).expect(303);
    await post(app, {
      signer_id: 'client-9',
      email: ' cy@example.com ',
      mobile_number: '555 555 0123',
      send_to_sms: 'true',
      idempotency_key: 'key-2',
    });
    await post(app, {
      signer_id: 'dee',
      send_to_email: 'true',
      send_to_sms: 'true',
      notify: 'true',
      idempotency_key: '',
    });
    await post(app, { signer_id: '5555550199', notify: 'true', idempotency_key: 'key-4' });
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.idempotencyKey, c.bearer]),
      [
        [
          { signer_id: 'bob@example.com', send_to: { email: true, mobile_number: false } },
          'key-1',
          'at_test',
        ],
        [
          {
            signer_id: 'client-9',
            signer: { email: 'cy@example.com', mobile_number: '555 555 0123' },
            send_to: { email: false, mobile_number: true },
            notify: false,
          },
          'key-2',
          'at_test',
        ],
        [{ signer_id: 'dee', send_to: { email: true, mobile_number: true } }, undefined, 'at_test'],
        [{ signer_id: '5555550199' }, 'key-4', 'at_test'],
      ],
    );
    // The replaced signer's id is one path segment, percent-encoded.
    const odd = appWith({
      ...answers(undefined),
      [POST.replace('ann%40example.com', 'c%2F7%20a')]: REPLACED,
    });
    await post(odd, { replaced: 'c/7 a', signer_id: 'bob', idempotency_key: 'k' }).expect(303);
  });

  it('goes back to the Request, saying who was replaced by whom', async () => {
    const app = appWith(answers(REPLACED, REPLACED));
    const res = await post(app, { signer_id: 'bob@example.com', idempotency_key: 'k' }).expect(303);
    const at = `/app/requests/${ID}?done=signer-replaced&replaced=ann%40example.com&signer_id=bob%40example.com`;
    assert.equal(res.headers.location, at);
    const shown = await request(app.callback).get(at).set('Cookie', COOKIE).expect(200);
    assert.match(
      shown.text,
      /<p class="success" role="status">Replaced ann@example.com with bob@example.com\.<\/p>/,
    );
    assert.match(shown.text, /<th scope="row">bob@example.com<\/th>/);
    const both = withSigners('sent', {}, { signer_id: 'bob@example.com', signer_ref: 'ref-bob' });
    const stale = appWith(answers(undefined, both));
    const before = await request(stale.callback).get(at).set('Cookie', COOKIE).expect(200);
    assert.doesNotMatch(before.text, /Replaced ann@example.com/, 'not while ann is still listed');
  });

  it('shows each refusal beside its field, the form open and as typed, with a summary linking to them', async () => {
    const refused = apiProblem(422, 'validation_failed', 'The body is not valid.', {
      signer_id: '"bob" is already a signer of this Request',
      'signer.email': 'must be an e-mail address',
      'send_to.mobile_number': 'needs a mobile number',
      '(body)': 'is wrong',
    });
    const app = appWith(answers(refused));
    const res = await post(app, {
      signer_id: ' bob ',
      email: 'not an address',
      mobile_number: '',
      send_to_sms: 'true',
      idempotency_key: 'key-typed',
    }).expect(422);
    const page = res.text;
    assert.match(page, /<details class="replace"\s+open>/);
    assert.doesNotMatch(page, /<details class="contact"\s+open>/, 'Correct contact stays closed');
    assert.match(
      page,
      /<p class="error" id="replace-0-signer-id-error">&quot;bob&quot; is already a signer of this Request<\/p>/,
    );
    assert.match(
      page,
      /id="replace-0-signer-id"\s+name="signer_id"\s+type="text"\s+value=" bob "\s+autocomplete="off" required aria-invalid="true"\s+aria-describedby="replace-0-signer-id-hint replace-0-signer-id-error"/,
    );
    assert.match(
      page,
      /id="replace-0-email"\s+name="email"\s+type="email"\s+value="not an address"\s+aria-invalid="true"\s+aria-describedby="replace-0-email-error"/,
    );
    assert.match(page, /<p class="error" id="replace-0-by-sms-error">needs a mobile number<\/p>/);
    assert.match(
      page,
      /id="replace-0-by-sms"\s+name="send_to_sms"\s+value="true"\s+checked aria-describedby="replace-0-by-sms-error" aria-invalid="true"/,
    );
    assert.match(page, /id="replace-0-by-email"\s+name="send_to_email"\s+value="true"\s+\/>/, 'as unticked');
    assert.match(page, /id="replace-0-notify"\s+name="notify"\s+value="true"\s+\/>/, 'as unticked');
    assert.match(page, /name="idempotency_key" value="key-typed"/);
    const summary = /<div class="errors" role="alert"[^]*?<\/div>/.exec(page)?.[0] ?? '';
    assert.match(summary, /The body is not valid\. ann@example.com was not replaced\./);
    assert.match(
      summary,
      /<a href="#replace-0-signer-id">New signer ID: &quot;bob&quot; is already a signer of this Request<\/a>/,
    );
    assert.match(summary, /<a href="#replace-0-email">E-mail address: must be an e-mail address<\/a>/);
    assert.match(summary, /<a href="#replace-0-by-sms">Send by SMS: needs a mobile number<\/a>/);
    assert.match(summary, /<li>\(body\): is wrong<\/li>/);
  });

  it('shows a conflict or an unknown signer in the summary at the top', async () => {
    const late = apiProblem(409, 'signer_not_pending', 'The signer has signed since.');
    const signed = await post(appWith(answers(late)), { signer_id: 'bob' }).expect(409);
    assert.match(
      signed.text,
      /role="alert"[^]*The signer has signed since\. ann@example.com was not replaced\./,
    );
    const expired = apiProblem(409, 'request_expired', 'The Request has expired.');
    const res = await post(appWith(answers(expired)), { signer_id: 'bob' }).expect(409);
    assert.match(res.text, /role="alert"[^]*The Request has expired\. ann@example.com was not replaced\./);
    const unknown = apiProblem(404, 'not_found', 'There is no signer nobody.');
    const app = appWith({ ...answers(undefined), [POST.replace('ann%40example.com', 'nobody')]: unknown });
    const gone = await post(app, { replaced: 'nobody', signer_id: 'bob' }).expect(404);
    assert.match(gone.text, /role="alert"[^]*There is no signer nobody\. nobody was not replaced\./);
    assert.doesNotMatch(gone.text, /<details class="replace"\s+open>/);
  });

  it('refuses a form without its anti-forgery token, asking the API nothing', async () => {
    const app = appWith(answers(REPLACED));
    for (const csrf of [undefined, 'forged'])
      await request(app.callback)
        .post(`/app/requests/${ID}/replace-signer`)
        .set('Cookie', COOKIE)
        .set('Origin', ORIGIN)
        .type('form')
        .send({
          ...(csrf === undefined ? {} : { _csrf: csrf }),
          replaced: 'ann@example.com',
          signer_id: 'bob',
        })
        .expect(403);
    assert.deepEqual(calls(app), []);
  });
});
