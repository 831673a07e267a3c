import assert from 'node:assert/strict';
import { Script } from 'node:vm';
import request from 'supertest';
import { APP_JS } from '../../src/assets/app-js.js';
import { CONTRACT_FILTER_FROM } from '../../src/pages/contract-boxes.js';
import { appWith } from '../support/fake-api.js';
import { answers, contract, COOKIE, list, TEMPLATES } from '../support/request-new.js';

const published = (count: number) =>
  Array.from({ length: count }, (_, i) => contract(101 + i, `Template ${101 + i}`, 'published', []));

const pageWith = async (path: string, count: number): Promise<string> => {
  const app = appWith(answers({ [TEMPLATES]: list(published(count)) }));
  return (await request(app.callback).get(path).set('Cookie', COOKIE).expect(200)).text;
};

/** The "Find a template" control: the filter's wrapper, from its opening tag to its end. */
const filterOf = (page: string): string =>
  /<div[^>]*id="contracts-filter-field"[\s\S]*?<\/div>/.exec(page)?.[0] ?? '';

const idsOf = (page: string): string[] => [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!);

describe('web: the "Find a template" filter over the template boxes', () => {
  it('is rendered hidden, labelled and nameless from the threshold on, before the boxes', async () => {
    assert.equal(CONTRACT_FILTER_FROM, 8);
    const page = await pageWith('/app/requests/new', CONTRACT_FILTER_FROM);
    const filter = filterOf(page);
    assert.match(filter, /^<div class="field contracts-filter" id="contracts-filter-field" hidden>/);
    assert.match(filter, /<label for="contracts-filter">Find a template<\/label>/);
    const input = /<input[^>]*>/.exec(filter)?.[0] ?? '';
    assert.match(input, /id="contracts-filter"/);
    assert.match(input, /type="search"/);
    assert.match(input, /aria-describedby="contracts-filter-hint"/);
    assert.match(input, /data-filter-boxes="contracts"/);
    assert.doesNotMatch(input, /\sname=/, 'the filter is never posted');
    assert.match(
      filter,
      /id="contracts-filter-hint">\s*Type part of a name or id; ticked templates always stay shown\./,
    );
    assert.match(
      filter,
      /id="contracts-filter-status" role="status" aria-live="polite">\s*Showing 8 of 8 templates\.\s*</,
    );
    const fieldset = page.indexOf('<fieldset class="checks" id="contracts"');
    assert.ok(fieldset >= 0);
    const at = page.indexOf('id="contracts-filter-field"');
    assert.ok(
      at > fieldset && at < page.indexOf('name="contract_101"'),
      'inside the fieldset, before the boxes',
    );
    assert.equal(page.match(/name="contract_\d+"/g)?.length, 8, 'every box is still there');
  });

  it('is not rendered below the threshold', async () => {
    const page = await pageWith('/app/requests/new', CONTRACT_FILTER_FROM - 1);
    assert.equal(page.match(/name="contract_\d+"/g)?.length, CONTRACT_FILTER_FROM - 1);
    assert.doesNotMatch(page, /contracts-filter|Find a template/);
  });

  it('is on the bulk-send form too, and neither page has an id twice', async () => {
    const bulk = await pageWith('/app/bulk-sends/new', 12);
    assert.match(filterOf(bulk), /Find a template/);
    assert.match(filterOf(bulk), /Showing 12 of 12 templates\./);
    for (const page of [bulk, await pageWith('/app/requests/new', 12)]) {
      const ids = idsOf(page);
      assert.deepEqual(
        ids.filter((id, i) => ids.indexOf(id) !== i),
        [],
      );
    }
  });

  it('is brought to life by app.js, which is valid script', () => {
    assert.doesNotThrow(() => new Script(APP_JS));
    assert.match(APP_JS, /input\[data-filter-boxes\]/);
    assert.match(APP_JS, /'-status'/);
    assert.match(APP_JS, /event\.key === 'Enter'/);
    // The served script's regular expressions keep their backslashes (a template string eats them).
    assert.equal(APP_JS.match(/\.replace\(\/\\s\+\/g, ' '\)/g)?.length, 2);
  });
});
