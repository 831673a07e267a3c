import assert from 'node:assert/strict';
import { appWith, callsOf, contract, CURRENT, page, requestView } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const LIST = 'GET /v1.1/sites/3/requests?page=1&per_page=20';
const FROM = 'created_from=2026-11-01T00%3A00%3A00Z';
const BEFORE = 'created_before=2026-12-01T00%3A00%3A00Z';
const NDA = contract(12, 'NDA', 'published', []);
/** The first `<tag …>…</tag>` of `text` that starts with `start`, white space as single spaces. */
const partOf = (text: string, start: string, end: string): string => {
  const at = text.indexOf(start);
  assert.ok(at >= 0, `${start} in the page`);
  return flat(text.slice(at, text.indexOf(end, at) + end.length));
};
/** The list calls the app made to the API. */
const listCalls = (app: ReturnType<typeof appWith>) =>
  callsOf(app, 'GET')
    .map(([path]) => String(path))
    .filter((path) => path.startsWith('/v1.1/sites/3/requests'));
/** A date field's block (label, hint, error, input) by its id. */
const fieldOf = (text: string, id: string): string => {
  const at = text.indexOf(`<label for="${id}">`);
  assert.ok(at >= 0, `the field ${id}`);
  return flat(text.slice(at, text.indexOf('/>', at) + 2));
};

/** `/app/requests?created_from=…&created_before=…`: the Requests created in some UTC days. */
describe('web: the Requests list filtered by the day created', () => {
  it('asks the API for the Requests created from the start of one UTC day to before another', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`${LIST}&${FROM}&${BEFORE}`]: page([requestView('sent')]),
    });
    const text = await showPage(app, '/app/requests?created_from=2026-11-01&created_before=2026-12-01');
    assert.deepEqual(listCalls(app), [`/v1.1/sites/3/requests?page=1&per_page=20&${FROM}&${BEFORE}`]);
    assert.equal(
      partOf(text, '<p role="status">', '</p>'),
      '<p role="status"> 1 Request created from 1 Nov 2026 to before 1 Dec 2026. ' +
        '<a href="/app/requests">Clear the dates</a> </p>',
    );
    const from = fieldOf(text, 'created_from');
    assert.match(from, /^<label for="created_from">Created on or after<\/label>/);
    assert.match(from, /Dates are in UTC\./);
    assert.match(from, /<input type="date" id="created_from" name="created_from" value="2026-11-01"/);
    assert.match(from, /aria-describedby="created_from-hint"/);
    const before = fieldOf(text, 'created_before');
    assert.match(before, /^<label for="created_before">Created before<\/label>/);
    assert.match(before, /Not including this day\. Dates are in UTC\./);
    assert.match(before, /<input type="date" id="created_before" name="created_before" value="2026-12-01"/);
    assert.doesNotMatch(text, /class="error"|aria-invalid/);
    // The date fields are in the state filter's own form.
    const form = partOf(text, 'aria-label="Filter Requests"', '</form>');
    assert.ok(form.includes('name="state"') && form.includes('name="created_from"'), form);
    assert.ok(form.includes('name="created_before"'), form);
  });

  it('takes one bound alone: on or after a day, or before a day', async () => {
    const after = appWith({ 'GET /v1.1/sessions/current': CURRENT, [`${LIST}&${FROM}`]: page([]) });
    const onOrAfter = await showPage(after, '/app/requests?created_from=2026-11-01');
    assert.deepEqual(listCalls(after), [`/v1.1/sites/3/requests?page=1&per_page=20&${FROM}`]);
    assert.match(
      partOf(onOrAfter, '<p role="status">', '</p>'),
      /0 Requests created on or after 1 Nov 2026\./,
    );
    const until = appWith({ 'GET /v1.1/sessions/current': CURRENT, [`${LIST}&${BEFORE}`]: page([]) });
    const before = await showPage(until, '/app/requests?created_before=2026-12-01');
    assert.deepEqual(listCalls(until), [`/v1.1/sites/3/requests?page=1&per_page=20&${BEFORE}`]);
    assert.equal(
      partOf(before, '<p class="notice">', '</p>'),
      '<p class="notice"> No Requests created before 1 Dec 2026. <a href="/app/requests">Clear the filter</a> </p>',
    );
  });

  it('keeps the dates with the other filters in the page links, and the others in the dates’ clear link', async () => {
    const second =
      'GET /v1.1/sites/3/requests?page=2&per_page=20&state=sent&signer_id=ann&contract_id=12' +
      `&${FROM}&${BEFORE}`;
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [second]: { ...page([requestView('sent')]), page: 2, per_page: 20, total_count: 60, has_more: true },
      'GET /v1.1/contracts/12': NDA,
    });
    const text = await showPage(
      app,
      '/app/requests?state=sent&signer_id=ann&contract_id=12&created_from=2026-11-01&created_before=2026-12-01&page=2',
    );
    assert.equal(listCalls(app).length, 1);
    const kept =
      'state=sent&amp;signer_id=ann&amp;contract_id=12&amp;created_from=2026-11-01&amp;created_before=2026-12-01';
    assert.ok(text.includes(`href="/app/requests?${kept}&amp;page=1" rel="prev"`), 'the previous page');
    assert.ok(text.includes(`href="/app/requests?${kept}&amp;page=3" rel="next"`), 'the next page');
    const status = partOf(text, '<p role="status">', '</p>');
    assert.ok(
      status.includes(
        'made with template <a href="/app/templates/12">NDA</a> created from 1 Nov 2026 to before 1 Dec 2026.',
      ),
      status,
    );
    assert.ok(
      status.includes(
        '<a href="/app/requests?state=sent&amp;contract_id=12&amp;created_from=2026-11-01&amp;created_before=2026-12-01">Show every signer’s</a>',
      ),
      status,
    );
    assert.ok(
      status.includes(
        '<a href="/app/requests?state=sent&amp;signer_id=ann&amp;contract_id=12">Clear the dates</a>',
      ),
      status,
    );
  });

  it('says a value that is not a date next to its field, naming it, and lists without that bound', async () => {
    for (const bad of ['2026-02-30', '2026-13-01', '1/11/2026', '2026-11-1', 'soon']) {
      const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, [`${LIST}&${BEFORE}`]: page([]) });
      const text = await showPage(
        app,
        `/app/requests?created_from=${encodeURIComponent(bad)}&created_before=2026-12-01`,
      );
      assert.deepEqual(listCalls(app), [`/v1.1/sites/3/requests?page=1&per_page=20&${BEFORE}`], bad);
      const from = fieldOf(text, 'created_from');
      assert.ok(
        from.includes(
          `<p class="error" id="created_from-error">Created on or after: “${bad}” is not a date. ` +
            'Enter one as YYYY-MM-DD, for example 2026-11-01.</p>',
        ),
        from,
      );
      assert.match(from, /aria-invalid="true"/, bad);
      assert.match(from, /aria-describedby="created_from-hint created_from-error"/, bad);
      assert.doesNotMatch(fieldOf(text, 'created_before'), /error|aria-invalid/, bad);
      assert.match(
        partOf(text, '<p class="notice">', '</p>'),
        /No Requests created before 1 Dec 2026\./,
        bad,
      );
    }
  });

  it('says an end not after the start next to “Created before”, and lists without the end', async () => {
    for (const to of ['2026-11-01', '2026-10-31']) {
      const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, [`${LIST}&${FROM}`]: page([]) });
      const text = await showPage(app, `/app/requests?created_from=2026-11-01&created_before=${to}`);
      assert.deepEqual(listCalls(app), [`/v1.1/sites/3/requests?page=1&per_page=20&${FROM}`], to);
      const before = fieldOf(text, 'created_before');
      assert.ok(
        before.includes(
          '<p class="error" id="created_before-error">Created before must be a later day than ' +
            'Created on or after (1 Nov 2026).</p>',
        ),
        before,
      );
      assert.match(before, new RegExp(`aria-invalid="true"`), to);
      assert.match(before, new RegExp(`value="${to}"`), 'kept in the field');
      assert.doesNotMatch(fieldOf(text, 'created_from'), /error|aria-invalid/, to);
    }
  });

  it('says the dates in the empty list’s one sentence with the other filters, and clears them all', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`${LIST}&state=sent&signer_id=ann&${FROM}&${BEFORE}`]: page([]),
    });
    const text = await showPage(
      app,
      '/app/requests?state=sent&signer_id=ann&created_from=2026-11-01&created_before=2026-12-01',
    );
    assert.equal(
      partOf(text, '<p class="notice">', '</p>'),
      '<p class="notice"> No sent Requests created from 1 Nov 2026 to before 1 Dec 2026 name signer “ann”. ' +
        '<a href="/app/requests">Clear the filters</a> </p>',
    );
    const only = appWith({ 'GET /v1.1/sessions/current': CURRENT, [`${LIST}&${FROM}&${BEFORE}`]: page([]) });
    assert.equal(
      partOf(
        await showPage(only, '/app/requests?created_from=2026-11-01&created_before=2026-12-01'),
        '<p class="notice">',
        '</p>',
      ),
      '<p class="notice"> No Requests created from 1 Nov 2026 to before 1 Dec 2026. ' +
        '<a href="/app/requests">Clear the filter</a> </p>',
    );
  });

  it('takes empty date fields, as the form sends them, as no date filter', async () => {
    const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, [`${LIST}&state=sent`]: page([]) });
    const text = await showPage(app, '/app/requests?state=sent&created_from=&created_before=');
    assert.deepEqual(listCalls(app), ['/v1.1/sites/3/requests?page=1&per_page=20&state=sent']);
    assert.doesNotMatch(text, /class="error"|Clear the dates|created (from|on or after|before) /);
    assert.match(fieldOf(text, 'created_from'), /value=""/);
  });
});
