import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { htmlTemplateBody, publishedTemplate, SITE_A } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';

/**
 * ADR 3220 against real Postgres: a draft's render_data and fields are replaced with
 * `PATCH /v1.1/requests/:id`, checked against its contracts as at create, kept by the
 * transitions after it and shown to its signers once sent; a sent Request's are fixed.
 */
describe('requests service: replacing a draft’s render_data and fields (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx, create } = historyFixture('draft-contents');
  const read = async (id: string) =>
    (await ctx.h.http.get(`/v1.1/requests/${id}`).set(ctx.headers).expect(200)).body as RequestView;
  const patch = (id: string, body: unknown) =>
    ctx.h.http
      .patch(`/v1.1/requests/${id}`)
      .set(ctx.headers)
      .send(body as object);

  it('replaces it whole, says so in the history, and the signers see it once sent', async () => {
    const draft = await create();
    const changed = await patch(draft.id, { render_data: { client_name: 'Acme <Ltd>' } }).expect(200);
    assert.deepEqual((changed.body as RequestView).render_data, { client_name: 'Acme <Ltd>' });
    assert.deepEqual(
      (await read(draft.id)).render_data,
      { client_name: 'Acme <Ltd>' },
      'start_date left out: gone',
    );
    const history = (await ctx.h.http.get(`/v1.1/requests/${draft.id}/events`).set(ctx.headers).expect(200))
      .body as { data: { type: string; data: Record<string, unknown> }[] };
    assert.deepEqual(
      history.data.map((e) => [e.type, e.data.changed]),
      [['request.updated', ['render_data']]],
    );
    // The same data again changes nothing and writes no event.
    await patch(draft.id, { render_data: { client_name: 'Acme <Ltd>' } }).expect(200);
    const again = (await ctx.h.http.get(`/v1.1/requests/${draft.id}/events`).set(ctx.headers).expect(200))
      .body as { data: unknown[] };
    assert.equal(again.data.length, 1);

    // The send's write keeps it, and the signer's page merges it (escaped).
    await ctx.h.http.post(`/v1.1/requests/${draft.id}/send`).set(ctx.headers).expect(200);
    const sent = await read(draft.id);
    assert.deepEqual(sent.render_data, { client_name: 'Acme <Ltd>' });
    const link = new URL(sent.signers[0]!.request_url);
    const page = await ctx.h.http.get(`${link.pathname}${link.search}`).expect(200);
    assert.match(page.text, /Between Acme &lt;Ltd&gt; and us, from \./);
  });

  it('refuses keys its contracts lack, and any change once sent, writing nothing', async () => {
    const draft = await create();
    const before = await read(draft.id);
    const unknown = await patch(draft.id, { render_data: { client_name: 'X', nope: 'y' } }).expect(422);
    assert.deepEqual(unknown.body.errors, [
      { path: 'render_data.nope', message: '"nope" is not a token of the contracts of this Request' },
    ]);
    const wrongType = await patch(draft.id, { render_data: { client_name: 7 } }).expect(422);
    assert.deepEqual(
      (wrongType.body.errors as { path: string }[]).map((e) => e.path),
      ['render_data.client_name'],
    );
    assert.deepEqual(await read(draft.id), before, 'nothing written');

    await ctx.h.http.post(`/v1.1/requests/${draft.id}/send`).set(ctx.headers).expect(200);
    const sent = await read(draft.id);
    const refused = await patch(draft.id, { render_data: { client_name: 'Too late' } }).expect(409);
    assert.equal(refused.body.code, 'invalid_state');
    assert.equal(
      refused.body.detail,
      'render_data can be changed only while the Request is a draft; this one is sent: its signers have been shown the document.',
    );
    assert.deepEqual(await read(draft.id), sent, 'nothing written');
    // Its expiry and reminders still change while it is open.
    await patch(draft.id, { reminder_interval_days: 2 }).expect(200);
    assert.deepEqual((await read(draft.id)).render_data, sent.render_data);
  });

  it('assigns a draft’s fields after create, with the create’s rules, so it can be sent', async () => {
    const created = await ctx.h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(ctx.headers)
      .send({
        contracts: [ctx.template],
        signers: [
          { signer_id: 'client-9', signer: { email: 'nine@example.com' } },
          { signer_id: 'client-10' },
        ],
        fields: [{ name: 'full_name', default_value: 'Nine' }],
      })
      .expect(201);
    const id = (created.body as RequestView).id;
    const blocked = await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(422);
    assert.equal(blocked.body.code, 'send_preconditions_failed');

    // Refusals name the entry and write nothing.
    const before = await read(id);
    const refused = await patch(id, {
      fields: [
        { name: 'nickname', assigned_to: 'client-9' },
        { name: 'agree', assigned_to: 'client-11' },
        { name: 'full_name', default_value: true },
      ],
    }).expect(422);
    assert.deepEqual(
      (refused.body.errors as { path: string }[]).map((e) => e.path),
      ['fields[0].name', 'fields[1].assigned_to', 'fields[2].default_value'],
    );
    assert.deepEqual(await read(id), before);

    // An e-mail address takes every field no entry assigns; a field left out loses its default.
    const changed = await patch(id, {
      fields: [
        { name: 'agree', assigned_to: 'client-10' },
        { name: 'signature', assigned_to: 'nine@example.com' },
      ],
    }).expect(200);
    assert.deepEqual(
      (changed.body as RequestView).fields.map((f) => [f.name, f.assigned_to, f.default_value]),
      [
        ['full_name', 'client-9', null],
        ['agree', 'client-10', null],
        ['signature', 'client-9', null],
      ],
    );
    assert.deepEqual((await read(id)).fields, (changed.body as RequestView).fields, 'stored');
    const history = (await ctx.h.http.get(`/v1.1/requests/${id}/events`).set(ctx.headers).expect(200))
      .body as {
      data: { data: Record<string, unknown> }[];
    };
    assert.deepEqual(
      history.data.map((e) => e.data.changed),
      [['fields']],
    );
    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
    const refusedOnceSent = await patch(id, { fields: [{ name: 'agree', assigned_to: 'client-9' }] }).expect(
      409,
    );
    assert.match(
      refusedOnceSent.body.detail as string,
      /^fields can be changed only while the Request is a draft/,
    );
  });

  it('replaces the fields of a draft of several contracts in the Request’s order, not the templates’ ids', async () => {
    const order = await publishedTemplate(
      ctx.h.http,
      SITE_A,
      htmlTemplateBody({
        name: 'Order',
        html: '<p>Order</p>',
        fields: [
          { name: 'plan', type: 'choice', options: ['basic', 'pro'] },
          { name: 'order_signature', type: 'signature' },
        ],
      }),
    );
    // Both orders of the two: whatever order the database reads templates in, one of them differs.
    const agreement = [
      { name: 'full_name', assigned_to: 'client-13', default_value: 'Thirteen' },
      { name: 'agree', assigned_to: 'client-13', default_value: true },
      { name: 'signature', assigned_to: 'client-13' },
    ];
    const orderForm = [
      { name: 'plan', assigned_to: 'client-12', default_value: 'pro' },
      { name: 'order_signature', assigned_to: 'client-12' },
    ];
    const fieldsOf = (view: RequestView) =>
      view.fields.map((f) => ({
        name: f.name,
        assigned_to: f.assigned_to,
        ...(f.default_value === null ? {} : { default_value: f.default_value }),
      }));
    for (const contracts of [
      [order, ctx.template],
      [ctx.template, order],
    ]) {
      const created = await ctx.h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(ctx.headers)
        .send({ contracts, signers: [{ signer_id: 'client-12' }, { signer_id: 'client-13' }] })
        .expect(201);
      const id = (created.body as RequestView).id;
      const expected = contracts[0] === order ? [...orderForm, ...agreement] : [...agreement, ...orderForm];
      const changed = await patch(id, { fields: [...agreement, ...orderForm] }).expect(200);
      assert.deepEqual(fieldsOf(changed.body as RequestView), expected, `contracts ${contracts.join(', ')}`);
      assert.deepEqual(fieldsOf(await read(id)), expected, 'stored on the fields named');
    }
  });
});
