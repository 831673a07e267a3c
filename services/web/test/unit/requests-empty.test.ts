import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, contract, COOKIE, CURRENT, page } from '../support/fake-api.js';

const LIST = 'GET /v1.1/sites/3/requests?page=1&per_page=20';
const NDA = contract(12, 'NDA <2030>', 'published', []);
const NEW_REQUEST = 'Create one with <a href="/app/requests/new">New Request</a>';

/** The empty Requests list's notice for `path`, its white space as single spaces. */
const noticeOf = async (answers: Record<string, unknown>, path: string): Promise<string> => {
  const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, ...answers });
  const text = (await request(app.callback).get(path).set('Cookie', COOKIE).expect(200)).text;
  const start = text.indexOf('<p class="notice">');
  assert.ok(start >= 0, 'a notice');
  return text.slice(start, text.indexOf('</p>', start) + 4).replace(/\s+/g, ' ');
};

/** `/app/requests` finding nothing: what it says depends on what the list was filtered by. */
describe('web: the empty Requests list', () => {
  it('without a filter, says there are none yet and how to make one', async () => {
    const notice = await noticeOf({ [LIST]: page([]) }, '/app/requests');
    assert.ok(notice.startsWith('<p class="notice"> No Requests here yet. '), notice);
    assert.ok(notice.includes(NEW_REQUEST), notice);
    assert.ok(notice.includes('<code>POST /v1.1/sites/3/requests</code>'), notice);
    assert.doesNotMatch(notice, /Clear the filter/);
  });

  it('filtered by a signer, says no Request names them, with the link that clears the filter', async () => {
    const notice = await noticeOf(
      { [`${LIST}&signer_id=client+%3C1%3E`]: page([]) },
      '/app/requests?signer_id=client%20%3C1%3E',
    );
    assert.equal(
      notice,
      '<p class="notice"> No Requests name signer “client &lt;1&gt;”. <a href="/app/requests">Clear the filter</a> </p>',
    );
  });

  it('filtered by a template, says no Request was made with it, by name, or by id when it cannot be read', async () => {
    const named = await noticeOf(
      { [`${LIST}&contract_id=12`]: page([]), 'GET /v1.1/contracts/12': NDA },
      '/app/requests?contract_id=12',
    );
    assert.equal(
      named,
      '<p class="notice"> No Requests were made with template “NDA &lt;2030&gt;”. <a href="/app/requests">Clear the filter</a> </p>',
    );
    const unread = await noticeOf(
      {
        [`${LIST}&contract_id=99`]: page([]),
        'GET /v1.1/contracts/99': apiProblem(404, 'not_found', 'No contract template 99.'),
      },
      '/app/requests?contract_id=99',
    );
    assert.ok(unread.startsWith('<p class="notice"> No Requests were made with template 99. '), unread);
  });

  it('filtered by a state, says there are none in it', async () => {
    const notice = await noticeOf({ [`${LIST}&state=declined`]: page([]) }, '/app/requests?state=declined');
    assert.equal(
      notice,
      '<p class="notice"> No declined Requests. <a href="/app/requests">Clear the filter</a> </p>',
    );
  });

  it('filtered several ways, says it in one sentence, with one link that clears them all', async () => {
    const all = await noticeOf(
      {
        [`${LIST}&state=sent&signer_id=ann&contract_id=12`]: page([]),
        'GET /v1.1/contracts/12': NDA,
      },
      '/app/requests?state=sent&signer_id=ann&contract_id=12',
    );
    assert.equal(
      all,
      '<p class="notice"> No sent Requests name signer “ann” and were made with template “NDA &lt;2030&gt;”. ' +
        '<a href="/app/requests">Clear the filters</a> </p>',
    );
    const two = await noticeOf(
      { [`${LIST}&state=draft&contract_id=12`]: page([]), 'GET /v1.1/contracts/12': NDA },
      '/app/requests?state=draft&contract_id=12',
    );
    assert.ok(
      two.startsWith(
        '<p class="notice"> No draft Requests were made with template “NDA &lt;2030&gt;”. <a href="/app/requests">Clear the filters</a>',
      ),
      two,
    );
    assert.doesNotMatch(two, /New Request/);
  });
});
