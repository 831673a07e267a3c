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

const PUT = `PUT /v1.1/requests/${ID}/contracts`;
const GET = `GET /v1.1/requests/${ID}`;
const EVENTS = `GET /v1.1/requests/${ID}/events?order=desc&per_page=100`;
const NDA = contract(1, 'NDA', 'published', []);
const SCHEDULE = contract(2, 'Schedule A', 'published', []);
const TERMS = contract(4, 'Terms', 'published', []);
/** A draft of three contracts: NDA, Schedule A, Terms. */
const THREE = { ...DRAFT, contracts: [1, 2, 4] };
const inOrder = (contracts: number[]) => ({ ...DRAFT, contracts });

type App = ReturnType<typeof appWith>;
const answers = (view: unknown, more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  [GET]: view,
  [EVENTS]: page([]),
  [TEMPLATES]: page([NDA, SCHEDULE, TERMS]),
  ...more,
});
const showing = async (view: unknown, query = '', more: Record<string, unknown> = {}) => {
  const app = appWith(answers(view, more));
  const res = await request(app.callback)
    .get(`/app/requests/${ID}${query}`)
    .set('Cookie', COOKIE)
    .expect(200);
  return { text: res.text, app };
};
const show = async (view: unknown, query = '', more: Record<string, unknown> = {}) =>
  (await showing(view, query, more)).text;
const move = (app: App, fields: Record<string, string>) =>
  request(app.callback)
    .post(`/app/requests/${ID}/move-contract`)
    .set('Cookie', COOKIE)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ _csrf: CSRF, ...fields });
const puts = (app: App) =>
  app.calls.filter((c) => `${c.method} ${c.path}` === PUT).map((c) => [c.body, c.idempotencyKey]);
const section = (text: string) =>
  /<section aria-labelledby="draft-contracts-title">[^]*?<\/section>\s*<\/section>/.exec(text)?.[0] ?? '';
/** Each contract's item: its name and the move buttons' forms. */
const items = (text: string) =>
  [...section(text).matchAll(/<li>([^]*?)<\/li>/g)].map((m) => ({
    name: /<a href="\/app\/templates\/\d+">([^<]*)<\/a>/.exec(m[1]!)?.[1],
    moves: [
      ...m[1]!.matchAll(
        /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/move-contract" class="inline">[^]*?<\/form>/g,
      ),
    ].map((f) => f[0]),
  }));
const said = (text: string) => text.replace(/\s+/g, ' ');

/** A draft's contracts put in a new order on its page (ADR 3310), over the fake API. */
describe('web: a draft’s contracts put in a new order', () => {
  it('gives each contract Move up but the first and Move down but the last, a key each', async () => {
    const text = await show(THREE);
    const listed = items(text);
    assert.deepEqual(
      listed.map((i) => [i.name, i.moves.map((f) => /name="direction" value="(\w+)"/.exec(f)?.[1])]),
      [
        ['NDA', ['down']],
        ['Schedule A', ['up', 'down']],
        ['Terms', ['up']],
      ],
    );
    const [up, down] = listed[1]!.moves;
    assert.match(up!, /name="contract_id" value="2"/);
    assert.match(up!, /name="order" value="1,2,4"/);
    assert.match(up!, /<input type="hidden" name="_csrf" value="[^"]+"/);
    assert.match(
      up!,
      /<button type="submit" class="secondary" aria-label="Move up: Schedule A">Move up<\/button>/,
    );
    assert.match(down!, /aria-label="Move down: Schedule A">Move down<\/button>/);
    const keys = listed
      .flatMap((i) => i.moves)
      .map((f) => /idempotency_key" value="([0-9a-f-]{36})"/.exec(f)?.[1]);
    assert.equal(new Set(keys).size, 4, 'a key each');
    assert.ok(keys.every((k) => k !== undefined));
    assert.match(said(section(text)), /Signers read the contracts in this order/);
  });

  it('offers no move for the only contract, nor on a Request that is not a draft', async () => {
    const alone = await show(DRAFT);
    assert.deepEqual(
      items(alone).map((i) => i.moves.length),
      [0],
    );
    assert.doesNotMatch(alone, /Signers read the contracts in this order/);
    assert.doesNotMatch(await show({ ...SENT, contracts: [1, 2] }), /move-contract/);
  });

  it('puts the order read now with the contract swapped with its neighbour, with the form’s key', async () => {
    const app = appWith(answers(THREE, { [PUT]: inOrder([2, 1, 4]) }));
    const res = await move(app, {
      contract_id: '2',
      direction: 'up',
      order: '1,2,4',
      idempotency_key: 'k-up',
    }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=contract-moved-up&contract_id=2&position=1`);
    assert.deepEqual(puts(app), [[{ contract_ids: [2, 1, 4] }, 'k-up']]);

    const down = appWith(answers(THREE, { [PUT]: inOrder([1, 4, 2]) }));
    const moved = await move(down, {
      contract_id: '2',
      direction: 'down',
      order: '1,2,4',
      idempotency_key: 'k-dn',
    });
    assert.equal(
      moved.headers.location,
      `/app/requests/${ID}?done=contract-moved-down&contract_id=2&position=3`,
    );
    assert.deepEqual(puts(down), [[{ contract_ids: [1, 4, 2] }, 'k-dn']]);
  });

  it('moves from the order as read now when it changed meanwhile, and not twice when sent twice', async () => {
    // Someone put Terms first meanwhile: Schedule A goes above NDA, Terms stays first.
    const changed = appWith(answers(inOrder([4, 1, 2]), { [PUT]: inOrder([4, 2, 1]) }));
    await move(changed, { contract_id: '2', direction: 'up', order: '1,2,4', idempotency_key: 'k1' }).expect(
      303,
    );
    assert.deepEqual(puts(changed), [[{ contract_ids: [4, 2, 1] }, 'k1']]);
    // The same button again (already moved): the same order with the same key, so the API repeats its answer.
    const again = appWith(answers(inOrder([2, 1, 4]), { [PUT]: inOrder([2, 1, 4]) }));
    await move(again, { contract_id: '2', direction: 'up', order: '1,2,4', idempotency_key: 'k2' }).expect(
      303,
    );
    assert.deepEqual(puts(again), [[{ contract_ids: [2, 1, 4] }, 'k2']]);
  });

  it('says why nothing moved when the contract is first already or no longer on the draft', async () => {
    const first = appWith(answers(inOrder([2, 1, 4])));
    const text = (
      await move(first, { contract_id: '2', direction: 'up', order: '2,1,4', idempotency_key: 'k' }).expect(
        409,
      )
    ).text;
    assert.match(
      said(text),
      /<div class="errors" role="alert"[^]*It is first already\. Schedule A was not moved\./,
    );
    const gone = appWith(answers(inOrder([1, 4])));
    const text2 = (
      await move(gone, { contract_id: '2', direction: 'down', order: '1,2,4', idempotency_key: 'k' }).expect(
        409,
      )
    ).text;
    assert.match(said(text2), /It is no longer on this draft[^<]*Schedule A was not moved\./);
    assert.deepEqual([...puts(first), ...puts(gone)], []);
  });

  it('says the move once the draft shows it there, and not from a link alone', async () => {
    const after = said(await show(inOrder([2, 1, 4]), '?done=contract-moved-up&contract_id=2&position=1'));
    assert.match(
      after,
      /<p class="success" role="status"> Schedule A moved up: it is now contract 1 of 3, in the order signers read them\. <\/p>/,
    );
    const forged = await show(THREE, '?done=contract-moved-up&contract_id=2&position=1');
    assert.doesNotMatch(forged, /moved\s+up/);
  });

  it('shows the API’s refusal, its errors at contract_ids in words, and a 409', async () => {
    const refused = apiProblem(422, 'invalid_body', 'Invalid request body', {
      'contract_ids[1]': 'contract template 9 is not a contract of this Request',
    });
    const app = appWith(answers(THREE, { [PUT]: refused }));
    const text = said(
      (
        await move(app, { contract_id: '4', direction: 'up', order: '1,2,4', idempotency_key: 'k' }).expect(
          422,
        )
      ).text,
    );
    assert.match(text, /<div class="errors" role="alert"[^]*Invalid request body\. Terms was not moved\./);
    assert.match(text, /<li>Contract order: contract template 9 is not a contract of this Request<\/li>/);
    assert.deepEqual(puts(app), [[{ contract_ids: [1, 4, 2] }, 'k']]);
    const sent = apiProblem(409, 'invalid_state', 'The Request is not a draft.');
    const late = appWith(answers(THREE, { [PUT]: sent }));
    const text2 = (
      await move(late, { contract_id: '1', direction: 'down', idempotency_key: 'k' }).expect(409)
    ).text;
    assert.match(said(text2), /role="alert"[^]*The Request is not a draft\. NDA was not moved\./);
  });

  it('names a contract whose template was archived since by reading it alone, or by its id', async () => {
    const archived = {
      ...contract(7, 'Old terms', 'published', []),
      archived_at: '2030-01-02T00:00:00.000Z',
      html: '',
    };
    // No fields: none of its templates is read for their kinds, so the calls are this section’s alone.
    const draft = { ...inOrder([1, 7]), fields: [] };
    const { text, app } = await showing(draft, '', { 'GET /v1.1/contracts/7': archived });
    assert.deepEqual(
      items(text).map((i) => i.name),
      ['NDA', 'Old terms'],
    );
    assert.match(text, /aria-label="Remove Old terms from this draft"/);
    assert.match(text, /aria-label="Move up: Old terms"/);
    const offered = (shown: string) =>
      [...(/<select[^]*?<\/select>/.exec(section(shown))?.[0] ?? '').matchAll(/<option value="(\d+)"/g)].map(
        (m) => m[1],
      );
    assert.deepEqual(offered(text), ['2', '4']);
    // Not even as the refused choice kept (it is on the draft, archived: it cannot be added again).
    const refused = apiProblem(422, 'invalid_body', 'Invalid request body', 'contract_id', 'is archived');
    const adding = appWith(
      answers(draft, { 'GET /v1.1/contracts/7': archived, [PUT.replace('PUT', 'POST')]: refused }),
    );
    const kept = await request(adding.callback)
      .post(`/app/requests/${ID}/add-contract`)
      .set('Cookie', COOKIE)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: CSRF, idempotency_key: 'k', contract_id: '7' })
      .expect(422);
    assert.deepEqual(offered(kept.text), ['2', '4'], 'an archived template is never offered');
    assert.deepEqual(
      app.calls.filter((c) => c.path.startsWith('/v1.1/contracts/')).map((c) => c.path),
      ['/v1.1/contracts/7'],
      'only the one not listed',
    );
    const unread = await show(draft);
    assert.deepEqual(
      items(unread).map((i) => i.name),
      ['NDA', 'template 7'],
    );
  });
});

describe('web: a draft’s contracts put in a new order in its History and the Activity feed', () => {
  it('names the contracts in their new order', async () => {
    const entry = {
      id: '00000000-0000-4000-8000-000000000001',
      type: 'request.contracts_reordered',
      created_at: '2030-01-02T10:00:00.000Z',
      site_id: 3,
      data: {
        request_id: ID,
        contracts: [
          { id: 2, name: 'Schedule A' },
          { id: 1, name: 'NDA' },
          { id: 4, name: 'Terms' },
        ],
      },
    };
    const text = await show(DRAFT, '', { [EVENTS]: page([entry]) });
    const history = /<section aria-labelledby="history-title">[^]*?<\/section>/.exec(text)?.[0] ?? '';
    assert.match(said(history), /<td>Contracts put in a new order: Schedule A, NDA, Terms<\/td>/);
    const feed = await request(
      appWith({
        'GET /v1.1/sessions/current': CURRENT,
        'GET /v1.1/sites/3/events?order=desc&per_page=50': {
          data: [entry],
          has_more: false,
          next_after: 'x',
          next_before: null,
        },
      }).callback,
    )
      .get('/app/activity')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(
      feed.text,
      /<option value="request.contracts_reordered"\s*>\s*Contracts reordered\s*<\/option>/,
    );
    assert.match(said(feed.text), /Contracts put in a new order: Schedule A, NDA, Terms/);
  });
});
