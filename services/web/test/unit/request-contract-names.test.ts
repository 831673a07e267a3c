import assert from 'node:assert/strict';
import request from 'supertest';
import {
  apiProblem,
  appWith,
  contract,
  COOKIE,
  CURRENT,
  REQUEST_ID,
  requestView,
} from '../support/fake-api.js';

/** The Contracts fact of a Request's page: each template by name, a deleted one (ADR 3430) unlinked. */
describe('web: a Request’s contracts named on its page', () => {
  const factOf = async (answers: Record<string, unknown>) => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/requests/${REQUEST_ID}`]: { ...requestView('completed'), contracts: [1, 7, 9] },
      ...answers,
    });
    const text = (
      await request(app.callback).get(`/app/requests/${REQUEST_ID}`).set('Cookie', COOKIE).expect(200)
    ).text;
    const fact = /<dt>Contracts<\/dt>\s*<dd>([\s\S]*?)<\/dd>/.exec(text);
    assert.ok(fact, 'a Contracts fact');
    return fact[1]!.replace(/\s+/g, ' ').trim();
  };

  it('names each template, linked; a deleted one by its id, unlinked and said to be deleted', async () => {
    assert.equal(
      await factOf({
        'GET /v1.1/contracts/1': contract(1, 'NDA <2030>', 'published', []),
        'GET /v1.1/contracts/7': apiProblem(404, 'not_found', 'No contract template 7.'),
        'GET /v1.1/contracts/9': contract(9, 'Order form', 'published', []),
      }),
      '<a href="/app/templates/1">NDA &lt;2030&gt;</a>, template 7 <span class="hint">(deleted)</span>, ' +
        '<a href="/app/templates/9">Order form</a>',
    );
  });

  it('keeps the link of a template it could not read for another reason, named by its id', async () => {
    assert.equal(
      await factOf({
        'GET /v1.1/contracts/1': apiProblem(503, 'web_upstream_unavailable', 'down'),
        'GET /v1.1/contracts/7': contract(7, 'NDA', 'published', []),
        'GET /v1.1/contracts/9': contract(9, 'Order form', 'published', []),
      }),
      '<a href="/app/templates/1">template 1</a>, <a href="/app/templates/7">NDA</a>, ' +
        '<a href="/app/templates/9">Order form</a>',
    );
  });
});
