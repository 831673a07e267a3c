import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { countRows, pdfWithFields, publishedTemplate, SITE_A } from '../support/harness.js';
import { historyFixture, orderTemplateBody } from '../support/history-fixture.js';

/**
 * ADR 3300 against real Postgres: a draft's contracts are added (their new fields after
 * the others) and removed (with the fields and render_data keys only they had), each in
 * the transition's one statement; refusals write nothing; a sent Request's are fixed.
 */
describe('requests service: adding and removing a draft’s contracts (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx, read, history, callOn } = historyFixture('draft-contracts');
  let order: number;
  before(async () => {
    order = await publishedTemplate(ctx.h.http, SITE_A, orderTemplateBody());
  });
  const add = callOn('post', '/contracts');
  const remove = (id: string, contract: number | string) =>
    ctx.h.http.delete(`/v1.1/requests/${id}/contracts/${contract}`).set(ctx.headers);
  const draft = async () =>
    (
      (
        await ctx.h.http
          .post(`/v1.1/sites/${SITE_A.id}/requests`)
          .set(ctx.headers)
          .send({
            contracts: [ctx.template],
            signers: [{ signer_id: 'client-40' }],
            fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: 'client-40' })),
            render_data: { client_name: 'Acme', start_date: '2030-01-01' },
          })
          .expect(201)
      ).body as RequestView
    ).id;
  const assignments = (view: RequestView) => view.fields.map((f) => [f.name, f.assigned_to]);

  it('adds a contract last, with its new fields after the others, and sends it once they are assigned', async () => {
    const id = await draft();
    const added = (await add(id, { contract_id: order }).expect(201)).body as RequestView;
    assert.deepEqual(added.contracts, [ctx.template, order]);
    assert.deepEqual(assignments(added), [
      ['full_name', 'client-40'],
      ['agree', 'client-40'],
      ['signature', 'client-40'],
      ['order_signature', null],
    ]);
    assert.deepEqual(await read(id), added, 'stored as answered');
    assert.deepEqual(
      (await history(id)).map((e) => [e.type, e.data.contract_id, e.data.added_fields]),
      [['request.contract_added', order, ['order_signature']]],
    );
    const blocked = await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(422);
    assert.deepEqual(
      (blocked.body.errors as { path: string }[]).map((e) => e.path),
      ['fields[3].assigned_to'],
    );
    // Its tokens take render_data now, and its field an assignment, by name.
    await ctx.h.http
      .patch(`/v1.1/requests/${id}`)
      .set(ctx.headers)
      .send({
        render_data: { client_name: 'Acme', start_date: '2030-01-01', amount: '100' },
        fields: ['full_name', 'agree', 'signature', 'order_signature'].map((name) => ({
          name,
          assigned_to: 'client-40',
        })),
      })
      .expect(200);
    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
    const link = new URL((await read(id)).signers[0]!.request_url);
    const page = await ctx.h.http.get(`${link.pathname}${link.search}`).expect(200);
    assert.match(page.text, /Acme orders for 100\./);
  });

  it('removes a contract with the fields and render_data only it had; the rest keep their values', async () => {
    const id = await draft();
    await add(id, { contract_id: order }).expect(201);
    const removed = (await remove(id, ctx.template).expect(200)).body as RequestView;
    assert.deepEqual(removed.contracts, [order]);
    assert.deepEqual(assignments(removed), [
      ['signature', 'client-40'],
      ['order_signature', null],
    ]);
    assert.deepEqual(removed.render_data, { client_name: 'Acme' });
    assert.deepEqual(await read(id), removed, 'stored as answered');
    const events = await history(id);
    assert.deepEqual(events.at(-1)!.data, {
      request_id: id,
      contract_id: ctx.template,
      name: 'Agreement',
      removed_fields: ['full_name', 'agree'],
      removed_render_data: ['start_date'],
    });
    // Added back, it comes last, its fields after the others.
    const again = (await add(id, { contract_id: ctx.template }).expect(201)).body as RequestView;
    assert.deepEqual(again.contracts, [order, ctx.template]);
    assert.deepEqual(
      again.fields.map((f) => f.name),
      ['signature', 'order_signature', 'full_name', 'agree'],
    );
    assert.deepEqual(await read(id), again);
  });

  it('refuses what the rules forbid and anything once sent, writing nothing', async () => {
    const id = await draft();
    const before = await read(id);
    const rows = await countRows(ctx.h.pool, 'request_contracts');
    const messages = async (body: unknown) =>
      ((await add(id, body).expect(422)).body.errors as { path: string; message: string }[]).map(
        (e) => `${e.path}: ${e.message}`,
      );
    assert.deepEqual(await messages({ contract_id: ctx.template }), [
      `contract_id: contract template ${ctx.template} is already a contract of this Request`,
    ]);
    assert.deepEqual(await messages({ contract_id: 999_999 }), [
      'contract_id: no contract template 999999 on this site',
    ]);
    const lease = await publishedTemplate(ctx.h.http, SITE_A, {
      type: 'pdf',
      name: 'Lease',
      pdf: await pdfWithFields(),
    });
    assert.match(
      (await messages({ contract_id: lease }))[0]!,
      /is a PDF, and render_data applies to HTML contracts only/,
    );
    assert.deepEqual(
      ((await add(id, { contract_id: 'x' }).expect(422)).body.errors as { path: string }[]).map(
        (e) => e.path,
      ),
      ['contract_id'],
    );
    assert.equal((await remove(id, ctx.template).expect(409)).body.code, 'last_contract');
    assert.equal((await remove(id, order).expect(404)).body.code, 'not_found');
    assert.equal((await remove(id, 'nope').expect(404)).body.code, 'not_found');
    assert.deepEqual(await read(id), before, 'nothing written');
    assert.equal(await countRows(ctx.h.pool, 'request_contracts'), rows);
    assert.deepEqual(await history(id), []);

    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
    const sent = await read(id);
    const late = await add(id, { contract_id: order }).expect(409);
    assert.equal(late.body.code, 'invalid_state');
    assert.match(
      late.body.detail as string,
      /^Contracts are added and removed only while the Request is a draft/,
    );
    assert.equal((await remove(id, ctx.template).expect(409)).body.code, 'invalid_state');
    assert.deepEqual(await read(id), sent, 'nothing written');
  });

  it('an Idempotency-Key answers a retry as the first call, adding one contract', async () => {
    const id = await draft();
    const first = await add(id, { contract_id: order }, 'add-order').expect(201);
    const again = await add(id, { contract_id: order }, 'add-order').expect(201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    assert.deepEqual((await read(id)).contracts, [ctx.template, order]);
  });
});
