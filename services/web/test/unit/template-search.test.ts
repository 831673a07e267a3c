import assert from 'node:assert/strict';
import { appWith, callsOf, contract, CURRENT, page } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const LIST = '/v1.1/sites/3/contracts?page=1&per_page=50&archived=false';
const NDA = contract(12, 'Mutual NDA <2030>', 'published', []);

const answers = (more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  ...more,
});
const listCalls = (app: ReturnType<typeof appWith>) =>
  callsOf(app, 'GET')
    .map(([path]) => String(path))
    .filter((path) => path.includes('/contracts'));

/** `/app/templates?q=`: the Site's templates searched by part of their name, over the fake API. */
describe('web: searching the contract templates by name', () => {
  it('offers a labelled search form, like the Signers page', async () => {
    const text = await showPage(appWith(answers({ [`GET ${LIST}`]: page([NDA]) })), '/app/templates');
    assert.match(
      text,
      /method="get"\s+action="\/app\/templates"[^>]*role="search"\s+aria-label="Search templates"/,
    );
    assert.match(text, /<label for="q">Search<\/label>/);
    assert.match(
      flat(text),
      /<input id="q" name="q" type="search" maxlength="255" value="" aria-describedby="q-hint" \/>/,
    );
    assert.match(text, /<button type="submit" class="secondary">Search<\/button>/);
    assert.match(flat(text), /id="q-hint"> Part of a template’s name, in any case\. <\/p>/);
    assert.doesNotMatch(text, /Clear the search|whose name contains/, 'no search, no filter said');
  });

  it('sends the trimmed search encoded to the API, keeps it in the input and the page links, and says so', async () => {
    const q = 'nda & co/ä';
    const second = `/v1.1/sites/3/contracts?page=2&per_page=50&archived=false&q=nda+%26+co%2F%C3%A4`;
    const app = appWith(
      answers({
        [`GET ${second}`]: { ...page([NDA]), page: 2, per_page: 50, total_count: 120, has_more: true },
      }),
    );
    const text = await showPage(app, `/app/templates?q=${encodeURIComponent(`  ${q} `)}&page=2`);
    assert.deepEqual(listCalls(app), [second]);
    assert.match(text, /id="q" name="q" type="search" maxlength="255" value="nda &amp; co\/ä"/);
    assert.match(text, /href="\/app\/templates\?q=nda\+%26\+co%2F%C3%A4&amp;page=1" rel="prev"/);
    assert.match(text, /href="\/app\/templates\?q=nda\+%26\+co%2F%C3%A4&amp;page=3" rel="next"/);
    assert.ok(
      flat(text).includes(
        '<p role="status"> 120 templates whose name contains “nda &amp; co/ä”. <a href="/app/templates">Clear the search</a> </p>',
      ),
      'the filter said, with the link back to the whole list',
    );
    assert.match(text, /<a href="\/app\/templates\/12">Mutual NDA &lt;2030&gt;<\/a>/);
  });

  it('searches the archived list too, keeping it in the form, the links and the clear link', async () => {
    const path = '/v1.1/sites/3/contracts?page=1&per_page=50&archived=true&q=old';
    const archived = { ...NDA, archived_at: '2030-02-01T09:30:00.000Z' };
    const app = appWith(answers({ [`GET ${path}`]: { ...page([archived]), per_page: 50, has_more: true } }));
    const text = await showPage(app, '/app/templates?archived=true&q=old');
    assert.deepEqual(listCalls(app), [path]);
    assert.match(text, /role="search"\s+aria-label="Search archived templates"/);
    assert.match(text, /<input type="hidden" name="archived" value="true" \/>/);
    assert.match(text, /href="\/app\/templates\?archived=true&amp;q=old&amp;page=2" rel="next"/);
    assert.ok(
      flat(text).includes(
        '1 archived template whose name contains “old”. <a href="/app/templates?archived=true">Clear the search</a>',
      ),
    );
  });

  it('says what an empty search found nothing for, asking the API nothing more', async () => {
    const path = `${LIST}&q=zz%25_`;
    const app = appWith(answers({ [`GET ${path}`]: page([]) }));
    const text = await showPage(app, '/app/templates?q=zz%25_');
    assert.match(text, /<p class="notice">No templates whose name contains “zz%_”\.<\/p>/);
    assert.doesNotMatch(text, /No templates yet|archived\.<\/p>/);
    assert.deepEqual(listCalls(app), [path], 'no count of the archived ones');
    assert.ok(flat(text).includes('<a href="/app/templates">Clear the search</a>'));

    const archivedPath = '/v1.1/sites/3/contracts?page=1&per_page=50&archived=true&q=zz';
    const none = appWith(answers({ [`GET ${archivedPath}`]: page([]) }));
    assert.match(
      await showPage(none, '/app/templates?archived=true&q=zz'),
      /<p class="notice">No archived templates whose name contains “zz”\.<\/p>/,
    );
    assert.deepEqual(listCalls(none), [archivedPath]);
  });

  it('takes a blank search for none: no q sent, nothing said of a search', async () => {
    for (const blank of ['', '%20%20%20', '%09%20']) {
      const app = appWith(
        answers({
          [`GET ${LIST}`]: page([NDA]),
        }),
      );
      const text = await showPage(app, `/app/templates?q=${blank}`);
      assert.deepEqual(listCalls(app), [LIST], blank);
      assert.match(text, /id="q" name="q" type="search" maxlength="255" value=""/, blank);
      assert.doesNotMatch(text, /Clear the search|whose name contains/, blank);
    }
  });

  it('cuts a search longer than the API takes to its first 255 characters, and says so beside the field', async () => {
    const long = `${'a'.repeat(254)}😀b`;
    const app = appWith(answers({ [`GET ${LIST}&q=${'a'.repeat(254)}`]: page([]) }));
    const text = await showPage(app, `/app/templates?q=${encodeURIComponent(long)}`);
    assert.deepEqual(listCalls(app), [`${LIST}&q=${'a'.repeat(254)}`], 'no half character');
    assert.match(
      flat(text),
      /id="q-hint"> Part of a template’s name, in any case\. <strong>Your search was cut to its first 255 characters\.<\/strong>/,
    );
    const fits = appWith(answers({ [`GET ${LIST}&q=${'a'.repeat(255)}`]: page([]) }));
    assert.doesNotMatch(await showPage(fits, `/app/templates?q=${'a'.repeat(255)}`), /was cut/);
    assert.deepEqual(listCalls(fits), [`${LIST}&q=${'a'.repeat(255)}`]);
  });
});
