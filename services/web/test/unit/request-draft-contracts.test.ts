import assert from 'node:assert/strict';
import request from 'supertest';
import {
  apiProblem,
  appWith,
  contract,
  COOKIE,
  CSRF,
  CURRENT,
  ORIGIN,
  page,
  REQUEST_ID as ID,
} from '../support/fake-api.js';
import { DRAFT, SENT } from '../support/draft-signers.js';
import { TEMPLATES } from '../support/request-new.js';

const POST = `POST /v1.1/requests/${ID}/contracts`;
const DELETE = `DELETE /v1.1/requests/${ID}/contracts/1`;
const EVENTS = `GET /v1.1/requests/${ID}/events?order=desc&per_page=100`;
/** The Site's templates: 1 (on the draft), 2 and 4 (not), the draft's fields full_name and agree. */
const NDA = contract(1, 'NDA', 'published', [], [{ name: 'full_name', type: 'text' }]);
const SCHEDULE = contract(
  2,
  'Schedule A',
  'published',
  [],
  [
    { name: 'full_name', type: 'text' },
    { name: 'start_date', type: 'text' },
    { name: 'initials', type: 'text' },
  ],
);
const TERMS = contract(4, 'Terms', 'published', []);
/** The draft after Schedule A was added: its two new fields have no signer. */
const ADDED = {
  ...DRAFT,
  contracts: [1, 2],
  fields: [
    ...DRAFT.fields,
    { name: 'start_date', assigned_to: null, default_value: null },
    { name: 'initials', assigned_to: null, default_value: null },
  ],
};

type App = ReturnType<typeof appWith>;
const answers = (view: unknown, more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  [`GET /v1.1/requests/${ID}`]: view,
  [EVENTS]: page([]),
  [TEMPLATES]: page([NDA, SCHEDULE, TERMS]),
  ...more,
});
const show = async (view: unknown, query = '', more: Record<string, unknown> = {}) =>
  (
    await request(appWith(answers(view, more)).callback)
      .get(`/app/requests/${ID}${query}`)
      .set('Cookie', COOKIE)
      .expect(200)
  ).text;
const post = (app: App, action: string, fields: Record<string, string>) =>
  request(app.callback)
    .post(`/app/requests/${ID}/${action}`)
    .set('Cookie', COOKIE)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ _csrf: CSRF, ...fields });
const callsTo = (app: App, call: string) =>
  app.calls
    .filter((c) => `${c.method} ${c.path}` === call)
    .map((c) => [c.method, c.path, c.body, c.idempotencyKey]);
const section = (text: string) =>
  /<section aria-labelledby="draft-contracts-title">[^]*?<\/section>\s*<\/section>/.exec(text)?.[0] ?? '';
const removes = (text: string) =>
  [
    ...text.matchAll(
      /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/remove-contract" class="inline">[^]*?<\/form>/g,
    ),
  ].map((m) => m[0]);

/** A draft's contracts added and removed on its page (ADR 3300), over the fake API. */
describe('web: a draft’s contracts', () => {
  it('lists the draft’s contracts and offers only the Site’s templates not on it', async () => {
    const text = section(await show(ADDED));
    assert.match(text, /<h2 id="draft-contracts-title">Contracts<\/h2>/);
    assert.match(
      text,
      /<a href="\/app\/templates\/1">NDA<\/a>[^]*<a href="\/app\/templates\/2">Schedule A<\/a>/,
    );
    const select = /<select[^]*?<\/select>/.exec(text)?.[0] ?? '';
    assert.match(select, /id="add-contract-id"\s+name="contract_id"/);
    const offered = [...select.matchAll(/<option value="(\d+)"/g)].map((m) => m[1]);
    assert.deepEqual(offered, ['4'], 'Terms only: NDA and Schedule A are on the draft');
    assert.match(
      text,
      /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/add-contract" novalidate>/,
    );
    assert.match(text, /name="idempotency_key" value="[0-9a-f-]{36}"/);
    const none = section(await show({ ...ADDED, contracts: [1, 2, 4] }));
    assert.doesNotMatch(none, /add-contract"/);
    assert.match(
      none,
      /Every published template of this Site is on this draft already: there is none left to add\./,
    );
  });

  it('gives each contract a Remove with its own key while there are two, none to the only one', async () => {
    const both = removes(await show(ADDED));
    assert.equal(both.length, 2);
    assert.match(both[1]!, /name="contract_id" value="2"/);
    assert.match(both[1]!, /aria-label="Remove Schedule A from this draft">Remove<\/button>/);
    const key = (f: string) => /idempotency_key" value="([0-9a-f-]{36})"/.exec(f)?.[1];
    assert.ok(key(both[0]!) !== undefined && key(both[0]!) !== key(both[1]!), 'a key each');
    const alone = await show(DRAFT);
    assert.equal(removes(alone).length, 0, 'a Request has at least one contract');
    assert.match(section(alone), /A Request has at least one contract/);
  });

  it('offers nothing on a Request that is not a draft', async () => {
    const text = await show({ ...SENT, contracts: [1, 2] });
    assert.doesNotMatch(text, /draft-contracts-title|add-contract|remove-contract/);
  });

  it('adds the chosen template with the form’s key, and the notice names its fields with no signer', async () => {
    const app = appWith(answers(DRAFT, { [POST]: ADDED }));
    const res = await post(app, 'add-contract', { idempotency_key: 'key-add-1', contract_id: '2' }).expect(
      303,
    );
    assert.equal(res.headers.location, `/app/requests/${ID}?done=contract-added&contract_id=2`);
    assert.deepEqual(callsTo(app, POST), [
      ['POST', `/v1.1/requests/${ID}/contracts`, { contract_id: 2 }, 'key-add-1'],
    ]);
    const after = (await show(ADDED, '?done=contract-added&contract_id=2')).replace(/\s+/g, ' ');
    assert.match(
      after,
      /<p class="success" role="status">\s*Schedule A was added; its fields <strong>start_date, initials<\/strong>\s*have no signer yet: choose them under <a href="#fields-title">Fields<\/a>/,
    );
    const forged = await show(DRAFT, '?done=contract-added&contract_id=2');
    assert.doesNotMatch(forged, /was\s+added/, 'not claimed while it is not listed');
  });

  it('shows a 422 beside the select, the choice kept even if on the draft now, with a summary linking to it', async () => {
    const refused = apiProblem(
      422,
      'invalid_body',
      'Invalid request body',
      'contract_id',
      'is already on the Request',
    );
    const app = appWith(answers(ADDED, { [POST]: refused }));
    const text = (
      await post(app, 'add-contract', { idempotency_key: 'key-add-2', contract_id: '2' }).expect(422)
    ).text;
    assert.match(text, /<div class="errors" role="alert"[^]*Invalid request body\. No contract was added\./);
    assert.match(text, /<a href="#add-contract-id">Contract template: is already on the Request<\/a>/);
    assert.match(
      text,
      /<p class="error" id="add-contract-id-error">is already on the Request<\/p>\s*<select\s+id="add-contract-id"[^>]*aria-describedby="add-contract-hint add-contract-id-error"\s+aria-invalid="true"/,
    );
    // Schedule A, added meanwhile (a stale page), stays offered and chosen, with Terms.
    const offered = [
      ...(/<select[^]*?<\/select>/.exec(section(text))?.[0] ?? '').matchAll(/<option value="(\d+)"/g),
    ];
    assert.deepEqual(
      offered.map((m) => m[1]),
      ['2', '4'],
    );
    assert.match(text, /<option value="2"\s+selected>/);
    assert.match(
      text,
      /name="idempotency_key" value="key-add-2"/,
      'the same key, so a retry adds nothing twice',
    );
    assert.equal(callsTo(app, POST).length, 1);
  });

  it('removes a contract by its id with the form’s key, and says so once the draft agrees', async () => {
    const app = appWith(answers(ADDED, { [DELETE]: { ...DRAFT, contracts: [2] } }));
    const res = await post(app, 'remove-contract', { idempotency_key: 'key-rm-1', contract_id: '1' }).expect(
      303,
    );
    assert.equal(res.headers.location, `/app/requests/${ID}?done=contract-removed&contract_id=1`);
    assert.deepEqual(callsTo(app, DELETE), [
      ['DELETE', `/v1.1/requests/${ID}/contracts/1`, undefined, 'key-rm-1'],
    ]);
    const after = (await show({ ...DRAFT, contracts: [2] }, '?done=contract-removed&contract_id=1')).replace(
      /\s+/g,
      ' ',
    );
    assert.match(
      after,
      /<p class="success" role="status">\s*NDA was removed from this draft, with the fields/,
    );
    const forged = await show(ADDED, '?done=contract-removed&contract_id=1');
    assert.doesNotMatch(forged, /was\s+removed/, 'not claimed while it is listed');
  });

  it('shows the API’s 409 last_contract', async () => {
    const refused = apiProblem(409, 'last_contract', 'A Request has at least one contract.');
    const app = appWith(answers(DRAFT, { [DELETE]: refused }));
    const text = (await post(app, 'remove-contract', { idempotency_key: 'k', contract_id: '1' }).expect(409))
      .text;
    assert.match(
      text,
      /<div class="errors" role="alert"[^]*A Request has at least one contract\. NDA was not removed\./,
    );
  });
});

describe('web: a draft’s contracts added and removed in its History', () => {
  it('names the contract and the fields and render data that came or went', async () => {
    const event = (type: string, data: Record<string, unknown>, n: number) => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      type,
      created_at: `2030-01-02T10:0${n}:00.000Z`,
      site_id: 3,
      data: { request_id: ID, ...data },
    });
    const entries = [
      event('request.contract_added', { contract_id: 4, name: 'Terms', added_fields: [] }, 0),
      event(
        'request.contract_added',
        { contract_id: 2, name: 'Schedule A', added_fields: ['start_date', 'initials'] },
        1,
      ),
      event(
        'request.contract_removed',
        { contract_id: 4, name: 'Terms', removed_fields: [], removed_render_data: [] },
        2,
      ),
      event(
        'request.contract_removed',
        {
          contract_id: 2,
          name: 'Schedule A',
          removed_fields: ['initials'],
          removed_render_data: ['start', 'end'],
        },
        3,
      ),
    ];
    const text = await show(DRAFT, '', { [EVENTS]: page([...entries].reverse()) });
    const history = /<section aria-labelledby="history-title">[^]*?<\/section>/.exec(text)?.[0] ?? '';
    const happened = [...history.matchAll(/<tr>\s*<td><time[^]*?<\/time><\/td>\s*<td>([^]*?)<\/td>/g)].map(
      (m) => m[1]!.replace(/\s+/g, ' ').trim(),
    );
    assert.deepEqual(happened, [
      'Contract added: Terms',
      'Contract added: Schedule A — fields added: start_date, initials',
      'Contract removed: Terms',
      'Contract removed: Schedule A — field removed: initials; render data removed: start, end',
    ]);
  });
});
