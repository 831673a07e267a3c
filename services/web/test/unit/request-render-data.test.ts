import assert from 'node:assert/strict';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const DRAFT = {
  ...requestView('sent'),
  state: 'draft',
  sent_at: null,
  render_data: { client_name: 'Ann Lee', amount: '100' },
};
const WAS = 'client_name=Ann Lee\namount=100';

/** A draft's Render data on its page (ADR 3220), over the fake API. */
describe('web: changing a draft’s render data', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'render-data',
    call: PATCH,
    shown: DRAFT,
    hidden: { idempotency_key: 'key-1', was_render_data: WAS },
  });

  it('offers the section on a draft only, prefilled with its values as token=value lines', async () => {
    const page = await show(DRAFT);
    assert.match(page, /<h2 id="render-data-title">Render data<\/h2>/);
    assert.match(page, /action="\/app\/requests\/[0-9a-f-]{36}\/render-data" novalidate/);
    assert.match(
      page,
      /<textarea\s+id="render_data"\s+name="render_data"[^>]*>\nclient_name=Ann Lee\namount=100<\/textarea>/,
    );
    assert.match(page, /name="was_render_data" value="client_name=Ann Lee\namount=100"/);
    assert.match(page, /<button type="submit">Save render data<\/button>/);
    assert.doesNotMatch(await show(requestView('sent')), /render-data-title/, 'fixed once sent');
  });

  it('sends the new values whole with the form’s Idempotency-Key, then says so', async () => {
    const app = appWith(answers({ ...DRAFT, render_data: { client_name: 'Ann Lee Ltd' } }));
    const res = await post(app, { render_data: 'client_name = Ann Lee Ltd\n\n' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=render-data`);
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.idempotencyKey]),
      [[{ render_data: { client_name: 'Ann Lee Ltd' } }, 'key-1']],
    );
  });

  it('asks nothing when the lines mean the same values, in any order', async () => {
    const app = appWith(answers(undefined));
    const res = await post(app, { render_data: 'amount=100\r\nclient_name=Ann Lee' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=render-data-same`);
    assert.deepEqual(calls(app), []);
  });

  it('refuses a line that is not token=value itself, and shows the API’s refusal beside the field, as typed', async () => {
    const app = appWith(answers(undefined));
    const own = await post(app, { render_data: 'client_name=Ann\njust words' }).expect(422);
    assert.deepEqual(calls(app), []);
    assert.match(own.text, /id="render_data-error">Line 2 is not token=value\.</);
    assert.match(own.text, /The render data was not changed\./);
    assert.match(own.text, />\nclient_name=Ann\njust words<\/textarea>/);

    const refused = appWith(
      answers(apiProblem(422, 'invalid_body', 'Invalid body', { 'render_data.nope': 'is not a token' })),
    );
    const api = await post(refused, { render_data: 'nope=1' }).expect(422);
    assert.match(api.text, /id="render_data-error">nope: is not a token</);
    assert.match(api.text, /aria-invalid="true"/);
  });
});
