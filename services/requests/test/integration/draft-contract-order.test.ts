import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { countRows, publishedTemplate, SITE_A } from '../support/harness.js';
import { historyFixture, orderTemplateBody } from '../support/history-fixture.js';

/**
 * ADR 3310 against real Postgres: a draft's contracts put in a new order, its fields
 * following with their signers and values, in the transition's one statement; the rows'
 * places stay bounded however often the order changes; refusals write nothing.
 */
describe('requests service: a draft’s contracts in a new order (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx, read, history, callOn } = historyFixture('draft-contract-order');
  let order: number;
  before(async () => {
    order = await publishedTemplate(ctx.h.http, SITE_A, orderTemplateBody());
  });
  const reorder = callOn('put', '/contracts');
  /** A draft of the NDA and then the Order, every field assigned, one with a value. */
  const draft = async () => {
    const created = await ctx.h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(ctx.headers)
      .send({
        contracts: [ctx.template, order],
        signers: [{ signer_id: 'client-41' }],
        fields: [
          { name: 'full_name', assigned_to: 'client-41', default_value: 'Jo Doe' },
          ...['agree', 'signature', 'order_signature'].map((name) => ({ name, assigned_to: 'client-41' })),
        ],
        render_data: { client_name: 'Acme', start_date: '2030-01-01', amount: '100' },
      })
      .expect(201);
    return (created.body as RequestView).id;
  };
  const places = async (table: string, id: string) =>
    (await ctx.h.pool.manyFirst(
      sql.unsafe`SELECT position FROM ${sql.identifier([table])} WHERE request_id = ${id} ORDER BY position`,
    )) as number[];

  it('puts the contracts in the new order, the fields following with their signers and values, and sends it so', async () => {
    const id = await draft();
    const before = await read(id);
    const reordered = (await reorder(id, { contract_ids: [order, ctx.template] }).expect(200))
      .body as RequestView;
    assert.deepEqual(reordered.contracts, [order, ctx.template]);
    assert.deepEqual(
      reordered.fields.map((f) => [f.name, f.assigned_to, f.default_value]),
      [
        ['signature', 'client-41', null],
        ['order_signature', 'client-41', null],
        ['full_name', 'client-41', 'Jo Doe'],
        ['agree', 'client-41', null],
      ],
    );
    assert.deepEqual(reordered.render_data, before.render_data);
    assert.deepEqual(reordered.signers, before.signers);
    assert.deepEqual(await read(id), reordered, 'stored as answered');
    assert.deepEqual(
      (await history(id)).map((e) => [e.type, e.data]),
      [
        [
          'request.contracts_reordered',
          {
            request_id: id,
            contracts: [
              { id: order, name: 'Order' },
              { id: ctx.template, name: 'Agreement' },
            ],
          },
        ],
      ],
    );
    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
    const link = new URL((await read(id)).signers[0]!.request_url);
    const page = (await ctx.h.http.get(`${link.pathname}${link.search}`).expect(200)).text;
    assert.ok(page.indexOf('Acme orders for 100.') < page.indexOf('Between Acme and us'), 'the Order first');
  });

  it('keeps the rows’ places bounded however often the order changes', async () => {
    const id = await draft();
    for (let i = 0; i < 5; i += 1) {
      const next = i % 2 === 0 ? [order, ctx.template] : [ctx.template, order];
      assert.deepEqual(
        ((await reorder(id, { contract_ids: next }).expect(200)).body as RequestView).contracts,
        next,
      );
    }
    assert.deepEqual((await read(id)).contracts, [order, ctx.template]);
    assert.ok(Math.max(...(await places('request_contracts', id))) < 4);
    assert.ok(Math.max(...(await places('request_fields', id))) < 8);
    assert.equal((await history(id)).length, 5);
  });

  it('refuses a list that does not name each contract once, and anything once sent, writing nothing', async () => {
    const id = await draft();
    const before = await read(id);
    const rows = await countRows(ctx.h.pool, 'request_contracts');
    const messages = async (body: unknown) =>
      ((await reorder(id, body).expect(422)).body.errors as { path: string; message: string }[]).map(
        (e) => `${e.path}: ${e.message}`,
      );
    assert.deepEqual(await messages({ contract_ids: [order, 999_999] }), [
      'contract_ids[1]: contract template 999999 is not a contract of this Request',
      `contract_ids: must name every contract of this Request once; left out: ${ctx.template}`,
    ]);
    assert.deepEqual(await messages({ contract_ids: [order, ctx.template, order] }), [
      `contract_ids[2]: contract template ${order} is named more than once`,
    ]);
    assert.deepEqual(await messages({ contract_ids: [] }), ['contract_ids: must contain at least one item']);
    assert.deepEqual(
      (await messages({ contract_ids: ['x'] })).map((m) => m.split(':')[0]),
      ['contract_ids[0]'],
    );
    assert.deepEqual(await read(id), before, 'nothing written');
    assert.equal(await countRows(ctx.h.pool, 'request_contracts'), rows);
    // The order it has: the Request as it is, and no event.
    assert.deepEqual((await reorder(id, { contract_ids: [ctx.template, order] }).expect(200)).body, before);
    assert.deepEqual(await history(id), []);

    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
    const sent = await read(id);
    const late = await reorder(id, { contract_ids: [order, ctx.template] }).expect(409);
    assert.equal(late.body.code, 'invalid_state');
    assert.match(
      late.body.detail as string,
      /^Contracts are put in a new order only while the Request is a draft/,
    );
    assert.deepEqual(await read(id), sent, 'nothing written');
  });

  it('an Idempotency-Key answers a retry as the first call', async () => {
    const id = await draft();
    const first = await reorder(id, { contract_ids: [order, ctx.template] }, 'order-first').expect(200);
    const again = await reorder(id, { contract_ids: [order, ctx.template] }, 'order-first').expect(200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await history(id)).length, 1);
  });
});
