import assert from 'node:assert/strict';
import { apiProblem, appWith, callsOf, contract, CURRENT, page, requestView } from '../support/fake-api.js';
import { showPage, statusOf } from '../support/page-text.js';

const LIST = 'GET /v1.1/sites/3/requests?page=1&per_page=20';
const NDA = contract(12, 'NDA <2030>', 'published', []);

/** `/app/requests?contract_id=N`: the Requests made with one contract template, from its page. */
describe('web: the Requests made with a template', () => {
  it('asks the API for the Requests made with the template, and names it in the status line', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`${LIST}&contract_id=12`]: page([requestView('sent')]),
      'GET /v1.1/contracts/12': NDA,
    });
    const text = await showPage(app, '/app/requests?contract_id=12');
    assert.deepEqual(
      callsOf(app, 'GET')
        .map(([path]) => path)
        .sort(),
      [
        '/v1.1/contracts/12',
        '/v1.1/sessions/current',
        '/v1.1/sites/3/requests?page=1&per_page=20&contract_id=12',
      ],
    );
    assert.equal(
      statusOf(text),
      '<p role="status"> 1 Request made with template <a href="/app/templates/12">NDA &lt;2030&gt;</a>. ' +
        '<a href="/app/requests">Show every template’s</a> ',
    );
    assert.match(text, /<input type="hidden" name="contract_id" value="12" \/>/, 'kept by the state filter');
    assert.doesNotMatch(text, /name="signer_id"|Show every signer’s/);
  });

  it('says the template’s id when it cannot be read', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`${LIST}&contract_id=99`]: page([]),
      'GET /v1.1/contracts/99': apiProblem(404, 'not_found', 'No contract template 99.'),
    });
    const text = await showPage(app, '/app/requests?contract_id=99');
    assert.match(
      statusOf(text),
      /^<p role="status"> 0 Requests made with template <a href="\/app\/templates\/99">99<\/a>\. /,
    );
  });

  it('combines with the state and signer filters, keeping each in the form, the page links and the other’s link', async () => {
    const second =
      'GET /v1.1/sites/3/requests?page=2&per_page=20&state=sent&signer_id=client+1&contract_id=12';
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [second]: { ...page([requestView('sent')]), page: 2, per_page: 20, total_count: 60, has_more: true },
      'GET /v1.1/contracts/12': NDA,
    });
    const text = await showPage(app, '/app/requests?state=sent&signer_id=client%201&contract_id=12&page=2');
    assert.ok(
      callsOf(app, 'GET').some(
        ([path]) =>
          path === '/v1.1/sites/3/requests?page=2&per_page=20&state=sent&signer_id=client+1&contract_id=12',
      ),
    );
    assert.equal(
      statusOf(text),
      '<p role="status"> 60 Requests in state sent naming signer <code>client 1</code> made with template ' +
        '<a href="/app/templates/12">NDA &lt;2030&gt;</a>. ' +
        '<a href="/app/requests?state=sent&amp;contract_id=12">Show every signer’s</a> ' +
        '<a href="/app/requests?state=sent&amp;signer_id=client+1">Show every template’s</a> ',
    );
    assert.match(text, /<input type="hidden" name="signer_id" value="client 1" \/>/);
    assert.match(text, /<input type="hidden" name="contract_id" value="12" \/>/);
    assert.match(
      text,
      /href="\/app\/requests\?state=sent&amp;signer_id=client\+1&amp;contract_id=12&amp;page=1" rel="prev"/,
    );
    assert.match(
      text,
      /href="\/app\/requests\?state=sent&amp;signer_id=client\+1&amp;contract_id=12&amp;page=3" rel="next"/,
    );
  });

  it('ignores a contract_id that is not a positive integer, and reads no template', async () => {
    for (const bad of ['0', '-3', '1.5', 'abc', '12x', '', '1234567890123456']) {
      const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, [LIST]: page([]) });
      const text = await showPage(app, `/app/requests?contract_id=${encodeURIComponent(bad)}`);
      assert.deepEqual(
        callsOf(app, 'GET').map(([path]) => path),
        ['/v1.1/sessions/current', '/v1.1/sites/3/requests?page=1&per_page=20'],
        bad,
      );
      assert.equal(statusOf(text), '<p role="status"> 0 Requests. ', bad);
      assert.doesNotMatch(text, /name="contract_id"/, bad);
    }
    const twice = appWith({ 'GET /v1.1/sessions/current': CURRENT, [LIST]: page([]) });
    await showPage(twice, '/app/requests?contract_id=12&contract_id=13');
    assert.equal(callsOf(twice, 'GET').length, 2, 'a repeated contract_id is not one template');
  });

  it('links a published template (archived or not) to its Requests, and not a draft', async () => {
    const link = /<p><a href="\/app\/requests\?contract_id=12">Requests made with this template<\/a><\/p>/;
    const answers = (c: unknown) => ({ 'GET /v1.1/sessions/current': CURRENT, 'GET /v1.1/contracts/12': c });
    assert.match(await showPage(appWith(answers({ ...NDA, html: '<p>x</p>' })), '/app/templates/12'), link);
    const archived = { ...NDA, html: null, archived_at: '2030-02-01T09:30:00.000Z' };
    assert.match(await showPage(appWith(answers(archived)), '/app/templates/12'), link);
    const draft = { ...contract(12, 'NDA', 'draft', []), html: '<p>x</p>' };
    assert.doesNotMatch(
      await showPage(appWith(answers(draft)), '/app/templates/12'),
      /Requests made with this template/,
    );
  });
});
