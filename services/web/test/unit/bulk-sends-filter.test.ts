import assert from 'node:assert/strict';
import {
  apiProblem,
  appWith,
  bulkSendSummary,
  callsOf,
  contract,
  CURRENT,
  page,
} from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const LIST = 'GET /v1.1/sites/3/bulk_sends?page=1&per_page=50';
const NDA = contract(12, 'NDA <2030>', 'published', []);

/** A bulk send of Site 3 that named template 12, as the API lists it. */
const summary = (id: string, state: 'running' | 'completed') =>
  bulkSendSummary(id, {
    state,
    contracts: [{ id: 12, name: 'NDA <2030>' }],
    completed_at: state === 'completed' ? '2030-01-02T09:31:00.000Z' : null,
  });
const DONE = summary('c8b2d3e4-0000-4000-8000-000000000001', 'completed');

const answers = (more: Record<string, unknown>) => ({ 'GET /v1.1/sessions/current': CURRENT, ...more });
/** The first `<p …>` starting with `open`, its white space as single spaces; '' when none. */
const paragraphOf = (text: string, open: string): string => {
  const start = text.indexOf(open);
  return start < 0 ? '' : flat(text.slice(start, text.indexOf('</p>', start) + 4));
};
const pathsOf = (app: ReturnType<typeof appWith>): unknown[] =>
  callsOf(app, 'GET')
    .map(([path]) => path)
    .sort();

/** `/app/bulk-sends?state=…&contract_id=N`: the bulk sends in a state, or made with one template. */
describe('web: the Site’s bulk sends, filtered', () => {
  it('asks the API for the bulk sends made with the template, and names it in the status line', async () => {
    const app = appWith(answers({ [`${LIST}&contract_id=12`]: page([DONE]), 'GET /v1.1/contracts/12': NDA }));
    const text = await showPage(app, '/app/bulk-sends?contract_id=12');
    assert.deepEqual(pathsOf(app), [
      '/v1.1/contracts/12',
      '/v1.1/sessions/current',
      '/v1.1/sites/3/bulk_sends?page=1&per_page=50&contract_id=12',
    ]);
    assert.equal(
      paragraphOf(text, '<p role="status">'),
      '<p role="status"> 1 bulk send made with template <a href="/app/templates/12">NDA &lt;2030&gt;</a>. ' +
        '<a href="/app/bulk-sends">Show every template’s</a> </p>',
    );
    assert.match(text, /<input type="hidden" name="contract_id" value="12" \/>/, 'kept by the state filter');
    assert.match(
      text,
      /<option value="">Any state<\/option>\s*<option value="running"\s*>Running<\/option>\s*<option value="completed"\s*>Completed<\/option>/,
      'no state chosen',
    );
  });

  it('names the template by its id when it cannot be read (deleted)', async () => {
    const app = appWith(
      answers({
        [`${LIST}&contract_id=99`]: { ...page([DONE, DONE]), per_page: 50 },
        'GET /v1.1/contracts/99': apiProblem(404, 'not_found', 'No contract template 99.'),
      }),
    );
    const text = await showPage(app, '/app/bulk-sends?contract_id=99');
    assert.equal(
      paragraphOf(text, '<p role="status">'),
      '<p role="status"> 2 bulk sends made with template <a href="/app/templates/99">99</a>. ' +
        '<a href="/app/bulk-sends">Show every template’s</a> </p>',
    );
  });

  it('filters by state with the form, keeping it chosen, in the page links and in the template’s link', async () => {
    const second = `GET /v1.1/sites/3/bulk_sends?page=2&per_page=50&state=running&contract_id=12`;
    const app = appWith(
      answers({
        [second]: { ...page([DONE]), page: 2, per_page: 50, total_count: 120, has_more: true },
        'GET /v1.1/contracts/12': NDA,
      }),
    );
    const text = await showPage(app, '/app/bulk-sends?state=running&contract_id=12&page=2');
    assert.deepEqual(pathsOf(app), ['/v1.1/contracts/12', '/v1.1/sessions/current', second.slice(4)]);
    assert.match(
      flat(text),
      /<form method="get" action="\/app\/bulk-sends" class="bar panel" role="search" aria-label="Filter bulk sends" > <label for="state">State<\/label> <select id="state" name="state"> <option value="">Any state<\/option> <option value="running" selected>Running<\/option> <option value="completed" >Completed<\/option> <\/select> <div class="field date"> <label for="created_from">Started on or after<\/label>.*<label for="created_before">Started before<\/label>.*<\/div> <input type="hidden" name="contract_id" value="12" \/> <button type="submit" class="secondary">Filter<\/button> <\/form>/,
    );
    assert.equal(
      paragraphOf(text, '<p role="status">'),
      '<p role="status"> 120 bulk sends in state running made with template ' +
        '<a href="/app/templates/12">NDA &lt;2030&gt;</a>. ' +
        '<a href="/app/bulk-sends?state=running">Show every template’s</a> </p>',
    );
    assert.match(
      text,
      /<a href="\/app\/bulk-sends\?state=running&amp;contract_id=12&amp;page=1" rel="prev">Previous page<\/a>/,
    );
    assert.match(
      text,
      /<a href="\/app\/bulk-sends\?state=running&amp;contract_id=12&amp;page=3" rel="next">Next page<\/a>/,
    );
  });

  it('filters by state alone, reading no template', async () => {
    const app = appWith(answers({ [`${LIST}&state=completed`]: page([DONE]) }));
    const text = await showPage(app, '/app/bulk-sends?state=completed');
    assert.deepEqual(pathsOf(app), [
      '/v1.1/sessions/current',
      '/v1.1/sites/3/bulk_sends?page=1&per_page=50&state=completed',
    ]);
    assert.match(
      text,
      /<option value="running"\s*>Running<\/option>\s*<option value="completed"\s+selected>Completed<\/option>/,
    );
    assert.equal(
      paragraphOf(text, '<p role="status">'),
      '<p role="status"> 1 bulk send in state completed. </p>',
    );
    assert.doesNotMatch(text, /name="contract_id"/);
  });

  it('ignores an unknown state and a contract_id that is not a positive integer, and reads no template', async () => {
    for (const bad of ['0', '-3', '1.5', 'abc', '12x', '', '1234567890123456']) {
      const app = appWith(answers({ [`${LIST}&state=running`]: page([]) }));
      const text = await showPage(
        app,
        `/app/bulk-sends?state=running&contract_id=${encodeURIComponent(bad)}`,
      );
      assert.deepEqual(
        callsOf(app, 'GET').map(([path]) => path),
        ['/v1.1/sessions/current', '/v1.1/sites/3/bulk_sends?page=1&per_page=50&state=running'],
        bad,
      );
      assert.equal(
        paragraphOf(text, '<p role="status">'),
        '<p role="status"> 0 bulk sends in state running. </p>',
        bad,
      );
      assert.doesNotMatch(text, /name="contract_id"/, bad);
    }
    const unknown = appWith(answers({ [LIST]: page([DONE]) }));
    const text = await showPage(unknown, '/app/bulk-sends?state=cancelled');
    assert.deepEqual(
      callsOf(unknown, 'GET').map(([path]) => path),
      ['/v1.1/sessions/current', '/v1.1/sites/3/bulk_sends?page=1&per_page=50'],
    );
    assert.doesNotMatch(text, /role="status"|<option value="(running|completed)"\s+selected/);
    const twice = appWith(answers({ [LIST]: page([]) }));
    await showPage(twice, '/app/bulk-sends?contract_id=12&contract_id=13');
    assert.equal(callsOf(twice, 'GET').length, 2, 'a repeated contract_id is not one template');
  });

  it('says when none match, with the link to the list unfiltered', async () => {
    const noticeOf = async (more: Record<string, unknown>, path: string) =>
      paragraphOf(await showPage(appWith(answers(more)), path), '<p class="notice">');
    assert.equal(
      await noticeOf(
        { [`${LIST}&state=running&contract_id=12`]: page([]), 'GET /v1.1/contracts/12': NDA },
        '/app/bulk-sends?state=running&contract_id=12',
      ),
      '<p class="notice"> No running bulk sends were made with template “NDA &lt;2030&gt;”. ' +
        '<a href="/app/bulk-sends">Clear the filters</a> </p>',
    );
    assert.equal(
      await noticeOf({ [`${LIST}&contract_id=99`]: page([]) }, '/app/bulk-sends?contract_id=99'),
      '<p class="notice"> No bulk sends were made with template 99. <a href="/app/bulk-sends">Clear the filter</a> </p>',
    );
    assert.equal(
      await noticeOf({ [`${LIST}&state=completed`]: page([]) }, '/app/bulk-sends?state=completed'),
      '<p class="notice"> No completed bulk sends. <a href="/app/bulk-sends">Clear the filter</a> </p>',
    );
    // Past the end of a filtered list: back to its first page, filtered still.
    const past = `GET /v1.1/sites/3/bulk_sends?page=9&per_page=50&state=running`;
    assert.equal(
      await noticeOf(
        { [past]: { ...page([]), page: 9, total_count: 3 } },
        '/app/bulk-sends?state=running&page=9',
      ),
      '<p class="notice"> No bulk sends on page 9. <a href="/app/bulk-sends?state=running">Back to the first page</a> </p>',
    );
  });

  it('links a published template (archived or not) to its bulk sends, next to its Requests, and not a draft', async () => {
    const link =
      /<p><a href="\/app\/requests\?contract_id=12">Requests made with this template<\/a><\/p>\s*<p>\s*<a href="\/app\/bulk-sends\?contract_id=12">Bulk sends made with this template<\/a>\s*<\/p>/;
    const page12 = (c: unknown) => appWith(answers({ 'GET /v1.1/contracts/12': c }));
    assert.match(await showPage(page12({ ...NDA, html: '<p>x</p>' }), '/app/templates/12'), link);
    const archived = { ...NDA, html: null, archived_at: '2030-02-01T09:30:00.000Z' };
    assert.match(await showPage(page12(archived), '/app/templates/12'), link);
    const draft = { ...contract(12, 'NDA', 'draft', []), html: '<p>x</p>' };
    assert.doesNotMatch(
      await showPage(page12(draft), '/app/templates/12'),
      /Bulk sends made with this template/,
    );
  });
});
