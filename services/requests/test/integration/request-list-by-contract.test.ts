import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { htmlTemplateBody, idsOf, principal, publishedTemplate, SITE_A, SITE_B } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';

/**
 * ADRs 3340 and 3370 against real Postgres: a Site's Requests listed by a template among
 * their contracts, and by when they were created.
 */
describe('requests service: a Site’s Requests by template and by creation time (real Postgres)', function () {
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

  it('lists the Requests created in a half-open interval, with the other filters', async () => {
    const day = 24 * 60 * 60 * 1000;
    ctx.h.clock.advance(10 * day);
    const first = await create([ctx.template]);
    const firstAt = new Date(ctx.h.clock.clock.now()).toISOString();
    ctx.h.clock.advance(day);
    const second = await create([ctx.template]);
    const secondAt = new Date(ctx.h.clock.clock.now()).toISOString();
    const between = (from: string, before: string) =>
      list(`created_from=${from}&created_before=${before}&contract_id=${ctx.template}`).then(idsOf);
    // The start is in the interval and the end is not, so consecutive intervals tile.
    assert.deepEqual(await between(firstAt, secondAt), [first]);
    assert.deepEqual(idsOf(await list(`created_from=${secondAt}`)), [second]);
    assert.deepEqual(
      idsOf(
        await list(
          `created_from=${firstAt}&created_before=${new Date(Date.parse(secondAt) + 1).toISOString()}`,
        ),
      ),
      [second, first],
    );
    // Any zone, read as the instant it names (+ encoded in a query).
    const inBerlin = new Date(Date.parse(secondAt) + 3_600_000)
      .toISOString()
      .replace('Z', '+01:00')
      .replace('.000', '');
    assert.ok(!(await list(`created_before=${encodeURIComponent(inBerlin)}`).then(idsOf)).includes(second));
    assert.equal((await list(`created_from=${secondAt}&state=cancelled`)).total_count, 0);
  });

  it('refuses a time without a zone, a date, a repeated one, or an interval holding no instant, by name', async () => {
    for (const [query, path] of [
      ['created_from=2026-11-01T00:00:00', 'created_from'],
      ['created_before=2026-11-01', 'created_before'],
      ['created_before=yesterday', 'created_before'],
      ['created_from=2026-11-01T00:00:00Z&created_from=2026-11-02T00:00:00Z', 'created_from'],
      ['created_from=2026-11-02T00:00:00Z&created_before=2026-11-02T00:00:00Z', 'created_before'],
      ['created_from=2026-11-02T00:00:00Z&created_before=2026-11-01T00:00:00Z', 'created_before'],
    ] as const) {
      const refused = await list(query, 400);
      assert.deepEqual(
        (refused.errors as { path: string }[]).map((e) => e.path),
        [path],
        query,
      );
    }
  });
});
