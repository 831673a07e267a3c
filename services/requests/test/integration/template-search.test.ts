import assert from 'node:assert/strict';
import type { ContractList } from '@esign/contracts';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/** ADR 3360 against real Postgres: a Site's templates searched by part of their name. */
describe('requests service: contract templates searched by name (real Postgres)', () => {
  let h: Harness;
  let headers: Record<string, string>;
  const ids: Record<string, number> = {};
  before(async () => {
    h = await startHarness('template_search');
    headers = await principal([SITE_A, SITE_B]);
    for (const name of ['Lease 2026', 'Office lease', 'NDA', '100% refund_policy', 'Back\\slash'])
      ids[name] = (
        await h.http
          .post(`/v1.1/sites/${SITE_A.id}/contracts`)
          .set(headers)
          .send(htmlTemplateBody({ name }))
          .expect(201)
      ).body.id as number;
    await h.http.post(`/v1.1/contracts/${ids['Office lease']}/publish`).set(headers).expect(200);
    // Another Site's template of the same name is never listed here.
    await publishedTemplate(h.http, SITE_B, htmlTemplateBody({ name: 'Lease 2026' }));
  });
  after(async () => {
    await h.close();
  });

  const search = async (query: string) => {
    const list = (await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts?${query}`).set(headers).expect(200))
      .body as ContractList;
    return { names: list.data.map((c) => c.name).sort(), total: list.total_count };
  };

  it('lists the Site’s templates whose name holds the text, in any case, with the other filters', async () => {
    assert.deepEqual(await search('q=LEASE'), { names: ['Lease 2026', 'Office lease'], total: 2 });
    assert.deepEqual(await search(`q=${encodeURIComponent('  lease ')}`), {
      names: ['Lease 2026', 'Office lease'],
      total: 2,
    });
    assert.deepEqual(await search('q=lease&state=published'), { names: ['Office lease'], total: 1 });
    assert.deepEqual(await search('q=lease&archived=true'), { names: [], total: 0 });
    assert.deepEqual((await search('q=lease&per_page=1&page=2')).total, 2);
    assert.deepEqual(await search('q=contract'), { names: [], total: 0 });
  });

  it('reads %, _ and \\ as themselves, not as patterns', async () => {
    assert.deepEqual((await search(`q=${encodeURIComponent('100%')}`)).names, ['100% refund_policy']);
    assert.deepEqual((await search(`q=${encodeURIComponent('%')}`)).names, ['100% refund_policy']);
    assert.deepEqual((await search('q=_')).names, ['100% refund_policy']);
    assert.deepEqual((await search(`q=${encodeURIComponent('\\')}`)).names, ['Back\\slash']);
  });

  it('refuses an empty, blank, repeated or over-long q by name', async () => {
    for (const bad of ['q=', `q=${encodeURIComponent('   ')}`, 'q=a&q=b', `q=${'x'.repeat(256)}`]) {
      const refused = await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts?${bad}`).set(headers).expect(400);
      assert.deepEqual(refused.body.errors, [{ path: 'q', message: 'must be 1 to 255 characters' }], bad);
    }
  });
});
