import assert from 'node:assert/strict';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const COPIED = { ...requestView('sent'), cc: ['legal@acme.test', 'ops@acme.test'] };

/** A Request's carbon copies on its page (ADR 3230), over the fake API. */
describe('web: who a Request copies the signed document to', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'cc',
    call: PATCH,
    shown: COPIED,
    hidden: { idempotency_key: 'key-1', was_cc: 'legal@acme.test, ops@acme.test' },
  });

  it('lists them among the facts, and offers them to change while the Request is open', async () => {
    const page = await show(COPIED);
    assert.match(
      page,
      /<dt>Copies to<\/dt>\s*<dd>\s*legal@acme\.test, ops@acme\.test\s*<span class="hint">\(the signed document, once everyone has signed\)<\/span>/,
    );
    assert.match(page, /<h2 id="cc-title">CC<\/h2>/);
    assert.match(page, /id="cc"\s+name="cc"\s+type="text"\s+value="legal@acme.test, ops@acme.test"/);
    assert.match(page, /action="\/app\/requests\/[0-9a-f-]{36}\/cc" novalidate/);
    const plain = await show(requestView('sent'));
    assert.doesNotMatch(plain, /Copies to/);
    assert.match(plain, /<h2 id="cc-title">CC<\/h2>/, 'an open Request without any can be given some');
    assert.doesNotMatch(await show({ ...requestView('completed'), cc: ['legal@acme.test'] }), /cc-title/);
  });

  it('sends the addresses as typed with the form’s Idempotency-Key; the same ones ask nothing', async () => {
    const app = appWith(answers(COPIED));
    const res = await post(app, { cc: 'legal@acme.test;\nboss@acme.test' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=cc`);
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.idempotencyKey]),
      [[{ cc: ['legal@acme.test', 'boss@acme.test'] }, 'key-1']],
    );
    const same = appWith(answers(undefined));
    const unchanged = await post(same, { cc: 'Legal@acme.test ops@acme.test' }).expect(303);
    assert.equal(unchanged.headers.location, `/app/requests/${ID}?done=cc-same`);
    assert.deepEqual(calls(same), []);
    const cleared = appWith(answers(COPIED));
    await post(cleared, { cc: '' }).expect(303);
    assert.deepEqual(calls(cleared)[0]?.body, { cc: [] }, 'emptied: none');
  });

  it('shows the API’s refusal of one address beside the field, as typed', async () => {
    const app = appWith(
      answers(apiProblem(422, 'invalid_body', 'Invalid body', { 'cc[1]': 'repeats cc[0]' })),
    );
    const res = await post(app, { cc: 'a@acme.test, A@acme.test' }).expect(422);
    assert.match(res.text, /id="cc-error">cc\[1\]: repeats cc\[0\]</);
    assert.match(res.text, /value="a@acme.test, A@acme.test"/);
    assert.match(res.text, /The CC addresses were not changed\./);
  });
});
