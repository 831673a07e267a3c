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
import { flat, showPage, statusOf } from '../support/page-text.js';

const LIST = 'GET /v1.1/sites/3/bulk_sends?page=1&per_page=50';
const FROM = 'created_from=2026-11-01T00%3A00%3A00Z';
const BEFORE = 'created_before=2026-12-01T00%3A00%3A00Z';
const NDA = contract(12, 'NDA', 'published', []);
const DONE = bulkSendSummary('c8b2d3e4-0000-4000-8000-000000000001', {
  contracts: [{ id: 12, name: 'NDA' }],
});

const answers = (more: Record<string, unknown>) => ({ 'GET /v1.1/sessions/current': CURRENT, ...more });
/** The list calls the app made to the API. */
const listCalls = (app: ReturnType<typeof appWith>) =>
  callsOf(app, 'GET')
    .map(([path]) => String(path))
    .filter((path) => path.startsWith('/v1.1/sites/3/bulk_sends'));
/** The first `<p …>` starting with `open`, its white space as single spaces. */
const paragraphOf = (text: string, open: string): string => {
  const start = text.indexOf(open);
  assert.ok(start >= 0, `${open} in the page`);
  return flat(text.slice(start, text.indexOf('</p>', start) + 4));
};
/** A date field's block (label, hint, error, input) by its id. */
const fieldOf = (text: string, id: string): string => {
  const at = text.indexOf(`<label for="${id}">`);
  assert.ok(at >= 0, `the field ${id}`);
  return flat(text.slice(at, text.indexOf('/>', at) + 2));
};

/** `/app/bulk-sends?created_from=…&created_before=…`: the bulk sends started in some UTC days. */
describe('web: the Site’s bulk sends filtered by the day started', () => {
  it('asks the API for the bulk sends started from the start of one UTC day to before another', async () => {
    const app = appWith(answers({ [`${LIST}&${FROM}&${BEFORE}`]: page([DONE]) }));
    const text = await showPage(app, '/app/bulk-sends?created_from=2026-11-01&created_before=2026-12-01');
    assert.deepEqual(listCalls(app), [`/v1.1/sites/3/bulk_sends?page=1&per_page=50&${FROM}&${BEFORE}`]);
    assert.equal(
      paragraphOf(text, '<p role="status">'),
      '<p role="status"> 1 bulk send started from 1 Nov 2026 to before 1 Dec 2026. ' +
        '<a href="/app/bulk-sends">Clear the dates</a> </p>',
    );
    const from = fieldOf(text, 'created_from');
    assert.match(from, /^<label for="created_from">Started on or after<\/label>/);
    assert.match(from, /Including this day\. Dates are in UTC\./);
    assert.match(from, /<input type="date" id="created_from" name="created_from" value="2026-11-01"/);
    const before = fieldOf(text, 'created_before');
    assert.match(before, /^<label for="created_before">Started before<\/label>/);
    assert.match(before, /Not including this day\. Dates are in UTC\./);
    assert.match(before, /<input type="date" id="created_before" name="created_before" value="2026-12-01"/);
    assert.doesNotMatch(text, /class="error"|aria-invalid|Created (on or after|before)/);
    // Beside State, in the filter's own form.
    const start = text.indexOf('aria-label="Filter bulk sends"');
    const form = flat(text.slice(start, text.indexOf('</form>', start)));
    assert.match(form, /name="state".*name="created_from".*name="created_before"/, form);
  });

  it('takes one bound alone, and says an empty list found nothing in those days', async () => {
    const after = appWith(answers({ [`${LIST}&${FROM}`]: page([DONE]) }));
    const onOrAfter = await showPage(after, '/app/bulk-sends?created_from=2026-11-01');
    assert.deepEqual(listCalls(after), [`/v1.1/sites/3/bulk_sends?page=1&per_page=50&${FROM}`]);
    assert.match(statusOf(onOrAfter), /1 bulk send started on or after 1 Nov 2026\./);
    const until = appWith(answers({ [`${LIST}&${BEFORE}`]: page([]) }));
    const before = await showPage(until, '/app/bulk-sends?created_before=2026-12-01');
    assert.deepEqual(listCalls(until), [`/v1.1/sites/3/bulk_sends?page=1&per_page=50&${BEFORE}`]);
    assert.match(statusOf(before), /0 bulk sends started before 1 Dec 2026\./);
    assert.equal(
      paragraphOf(before, '<p class="notice">'),
      '<p class="notice"> No bulk sends started before 1 Dec 2026. ' +
        '<a href="/app/bulk-sends">Clear the filter</a> </p>',
    );
    assert.doesNotMatch(before, /on this Site yet/);
  });

  it('keeps the dates with the state and template in the API call, the page links and the template’s link', async () => {
    const second = `GET /v1.1/sites/3/bulk_sends?page=2&per_page=50&state=completed&contract_id=12&${FROM}&${BEFORE}`;
    const app = appWith(
      answers({
        [second]: { ...page([DONE]), page: 2, per_page: 50, total_count: 120, has_more: true },
        'GET /v1.1/contracts/12': NDA,
      }),
    );
    const text = await showPage(
      app,
      '/app/bulk-sends?state=completed&contract_id=12&created_from=2026-11-01&created_before=2026-12-01&page=2',
    );
    assert.deepEqual(listCalls(app), [second.slice(4)]);
    const kept =
      'state=completed&amp;contract_id=12&amp;created_from=2026-11-01&amp;created_before=2026-12-01';
    assert.ok(text.includes(`href="/app/bulk-sends?${kept}&amp;page=1" rel="prev"`), 'the previous page');
    assert.ok(text.includes(`href="/app/bulk-sends?${kept}&amp;page=3" rel="next"`), 'the next page');
    assert.match(text, /<option value="completed"\s+selected>Completed<\/option>/);
    assert.match(text, /<input type="hidden" name="contract_id" value="12" \/>/, 'kept by the form');
    assert.equal(
      paragraphOf(text, '<p role="status">'),
      '<p role="status"> 120 bulk sends in state completed made with template ' +
        '<a href="/app/templates/12">NDA</a> started from 1 Nov 2026 to before 1 Dec 2026. ' +
        '<a href="/app/bulk-sends?state=completed&amp;created_from=2026-11-01&amp;created_before=2026-12-01">' +
        'Show every template’s</a> ' +
        '<a href="/app/bulk-sends?state=completed&amp;contract_id=12">Clear the dates</a> </p>',
    );
  });

  it('says the dates in the empty list’s one sentence with the other filters, and clears them all', async () => {
    const app = appWith(
      answers({
        [`${LIST}&state=running&contract_id=12&${FROM}&${BEFORE}`]: page([]),
        'GET /v1.1/contracts/12': NDA,
      }),
    );
    const text = await showPage(
      app,
      '/app/bulk-sends?state=running&contract_id=12&created_from=2026-11-01&created_before=2026-12-01',
    );
    assert.equal(
      paragraphOf(text, '<p class="notice">'),
      '<p class="notice"> No running bulk sends started from 1 Nov 2026 to before 1 Dec 2026 ' +
        'were made with template “NDA”. <a href="/app/bulk-sends">Clear the filters</a> </p>',
    );
  });

  it('says a value that is not a date next to its field, naming it, and lists without that bound', async () => {
    for (const bad of ['2026-02-30', '2026-13-01', '1/11/2026', 'soon']) {
      const app = appWith(answers({ [`${LIST}&${BEFORE}`]: page([]) }));
      const text = await showPage(
        app,
        `/app/bulk-sends?created_from=${encodeURIComponent(bad)}&created_before=2026-12-01`,
      );
      assert.deepEqual(listCalls(app), [`/v1.1/sites/3/bulk_sends?page=1&per_page=50&${BEFORE}`], bad);
      const from = fieldOf(text, 'created_from');
      assert.ok(
        from.includes(
          `<p class="error" id="created_from-error">Started on or after: “${bad}” is not a date. ` +
            'Enter one as YYYY-MM-DD, for example 2026-11-01.</p>',
        ),
        from,
      );
      assert.match(from, /aria-invalid="true"/, bad);
      assert.match(from, /aria-describedby="created_from-hint created_from-error"/, bad);
      assert.doesNotMatch(fieldOf(text, 'created_before'), /error|aria-invalid/, bad);
      assert.match(paragraphOf(text, '<p class="notice">'), /No bulk sends started before 1 Dec 2026\./, bad);
    }
  });

  it('says an end not after the start next to “Started before”, and lists without the end', async () => {
    for (const to of ['2026-11-01', '2026-10-31']) {
      const app = appWith(answers({ [`${LIST}&${FROM}`]: page([]) }));
      const text = await showPage(app, `/app/bulk-sends?created_from=2026-11-01&created_before=${to}`);
      assert.deepEqual(listCalls(app), [`/v1.1/sites/3/bulk_sends?page=1&per_page=50&${FROM}`], to);
      const before = fieldOf(text, 'created_before');
      assert.ok(
        before.includes(
          '<p class="error" id="created_before-error">Started before must be a later day than ' +
            'Started on or after (1 Nov 2026).</p>',
        ),
        before,
      );
      assert.match(before, /aria-invalid="true"/, to);
      assert.match(before, new RegExp(`value="${to}"`), 'kept in the field');
      assert.doesNotMatch(fieldOf(text, 'created_from'), /error|aria-invalid/, to);
    }
  });

  it('takes empty date fields, as the form sends them, as no date filter', async () => {
    const app = appWith(answers({ [`${LIST}&state=running`]: page([]) }));
    const text = await showPage(app, '/app/bulk-sends?state=running&created_from=&created_before=');
    assert.deepEqual(listCalls(app), ['/v1.1/sites/3/bulk_sends?page=1&per_page=50&state=running']);
    assert.doesNotMatch(text, /class="error"|Clear the dates|started (from|on or after|before) /);
    assert.match(fieldOf(text, 'created_from'), /value=""/);
  });

  it('shows the API’s refusal of the dates (400 invalid_query) as a problem page', async () => {
    const refused = apiProblem(
      400,
      'invalid_query',
      'created_before: must be later than created_from',
      'created_before',
      'must be later than created_from',
    );
    const app = appWith(answers({ [`${LIST}&${FROM}&${BEFORE}`]: refused }));
    const text = await showPage(
      app,
      '/app/bulk-sends?created_from=2026-11-01&created_before=2026-12-01',
      400,
    );
    assert.match(text, /<h1>This cannot be done<\/h1>/);
    assert.match(
      text,
      /<div class="errors" role="alert"><p>created_before: must be later than created_from<\/p><\/div>/,
    );
    assert.doesNotMatch(text, /<table>/);
  });
});
