import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { htmlTemplateBody, idsOf, principal, publishedTemplate, SITE_A, SITE_B } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';

/** ADR 3340 against real Postgres: a Site's Requests listed by a template among their contracts. */
describe('requests service: a Site’s Requests made with one template (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx } = historyFixture('request-list-by-contract', [SITE_A, SITE_B]);
  const list = async (query: string, status = 200) =>
    (await ctx.h.http.get(`/v1.1/sites/${SITE_A.id}/requests?${query}`).set(ctx.headers).expect(status))
      .body as { total_count: number; errors?: unknown };
  const create = async (contracts: number[]) =>
    (
      (
        await ctx.h.http
          .post(`/v1.1/sites/${SITE_A.id}/requests`)
          .set(ctx.headers)
          .send({ contracts, signers: [{ signer_id: 'by-contract@example.com' }] })
          .expect(201)
      ).body as RequestView
    ).id;

  it('lists the Requests with the template among their contracts, in any state, with the other filters', async () => {
    const other = await publishedTemplate(ctx.h.http, SITE_A, htmlTemplateBody({ name: 'Order' }));
    const onlyFirst = await create([ctx.template]);
    const onlyOther = await create([other]);
    const both = await create([other, ctx.template]);
    await ctx.h.http.post(`/v1.1/requests/${both}/cancel`).set(ctx.headers).expect(200);
    const sorted = (ids: unknown[]) => [...ids].sort();
    assert.deepEqual(sorted(idsOf(await list(`contract_id=${ctx.template}`))), sorted([both, onlyFirst]));
    assert.deepEqual(sorted(idsOf(await list(`contract_id=${other}`))), sorted([both, onlyOther]));
    assert.equal((await list(`contract_id=${other}`)).total_count, 2);
    assert.deepEqual(idsOf(await list(`contract_id=${other}&state=cancelled`)), [both]);
    assert.deepEqual(idsOf(await list(`contract_id=${other}&signer_id=nobody`)), []);
    // Another Site's template, and none: nothing.
    const elsewhere = await publishedTemplate(ctx.h.http, SITE_B);
    assert.deepEqual(idsOf(await list(`contract_id=${elsewhere}`)), []);
    assert.deepEqual(idsOf(await list('contract_id=999999')), []);
  });

  it('refuses a contract_id that is not one positive integer, by name', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '', `1&contract_id=2`]) {
      const refused = await list(`contract_id=${bad}`, 400);
      assert.deepEqual(
        (refused.errors as { path: string; message: string }[]).map((e) => `${e.path}: ${e.message}`),
        ['contract_id: must be a positive integer, given once'],
        bad,
      );
    }
    await ctx.h.http
      .get(`/v1.1/sites/${SITE_A.id}/requests?contract_id=1`)
      .set(await principal([SITE_B]))
      .expect(404);
  });
});
