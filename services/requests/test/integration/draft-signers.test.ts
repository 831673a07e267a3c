import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import * as t from 'io-ts';
import { countRows, SITE_A } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';

/**
 * ADR 3280 against real Postgres: a draft's signers are added (upserting the Site's
 * signer, with their challenge) and removed (their fields left unassigned), each in the
 * transition's one statement; refusals write nothing; a sent Request's signers are fixed.
 */
describe('requests service: adding and removing a draft’s signers (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx, read, history, callOn } = historyFixture('draft-signers');
  const add = callOn('post', '/signers');
  const remove = (id: string, signerId: string) =>
    ctx.h.http.delete(`/v1.1/requests/${id}/signers/${encodeURIComponent(signerId)}`).set(ctx.headers);
  const draft = async (signers: unknown[], fields: unknown[] = []) =>
    (
      (
        await ctx.h.http
          .post(`/v1.1/sites/${SITE_A.id}/requests`)
          .set(ctx.headers)
          .send({ contracts: [ctx.template], signers, fields })
          .expect(201)
      ).body as RequestView
    ).id;
  const signerIds = (view: RequestView) => view.signers.map((s) => s.signer_id);
  const assignments = (view: RequestView) => view.fields.map((f) => [f.name, f.assigned_to]);

  it('adds a signer last, upserts the Site’s signer, keeps their challenge, and says so in the history', async () => {
    const id = await draft([{ signer_id: 'client-20', signer: { email: 'twenty@example.com' } }]);
    const added = await add(id, {
      signer_id: 'dana@example.com',
      signer: { mobile_number: '12025550147' },
      send_to: { email: true },
      authentication: { method: 'access_code', access_code: '4321' },
    }).expect(201);
    const view = added.body as RequestView;
    assert.deepEqual(signerIds(view), ['client-20', 'dana@example.com']);
    assert.equal(added.headers.location, undefined, 'a signer has no URL of its own');
    const dana = view.signers[1]!;
    assert.equal(dana.email, 'dana@example.com');
    assert.equal(dana.mobile_number, '12025550147');
    assert.match(dana.request_url, /s=/);
    assert.deepEqual(await read(id), view, 'stored as answered');

    const site = await ctx.h.http
      .get(`/v1.1/sites/${SITE_A.id}/signers/dana%40example.com`)
      .set(ctx.headers)
      .expect(200);
    assert.equal(site.body.mobile_number, '12025550147', 'the Site’s signer upserted with the change');
    const challenge = await db.one(
      ctx.h.pool,
      t.type({ method: t.string, hashed: t.boolean }),
      sql.unsafe`SELECT method, access_code_hash IS NOT NULL AND access_code_hash <> '4321' AS hashed
                 FROM signer_challenges c JOIN request_signers rs USING (request_id, signer_ref)
                 WHERE rs.request_id = ${id} AND rs.signer_id = 'dana@example.com'`,
    );
    assert.deepEqual(challenge, { method: 'access_code', hashed: true });

    const events = await history(id);
    assert.deepEqual(
      events.map((e) => [e.type, e.data.signer_id, e.data.email, e.data.send_to]),
      [
        [
          'request.signer_added',
          'dana@example.com',
          'dana@example.com',
          { email: true, mobile_number: false },
        ],
      ],
    );
  });

  it('removes a signer: their fields lose them, the send waits until they are assigned again', async () => {
    const id = await draft(
      [{ signer_id: 'client-21' }, { signer_id: 'client-22' }],
      [
        { name: 'full_name', assigned_to: 'client-21' },
        { name: 'agree', assigned_to: 'client-22' },
        { name: 'signature', assigned_to: 'client-22' },
      ],
    );
    const removed = (await remove(id, 'client-22').expect(200)).body as RequestView;
    assert.deepEqual(signerIds(removed), ['client-21']);
    assert.deepEqual(assignments(removed), [
      ['full_name', 'client-21'],
      ['agree', null],
      ['signature', null],
    ]);
    assert.deepEqual(await read(id), removed, 'stored as answered');
    assert.deepEqual(
      (await history(id)).map((e) => [e.type, e.data.signer_id, e.data.unassigned_fields]),
      [['request.signer_removed', 'client-22', ['agree', 'signature']]],
    );
    const blocked = await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(422);
    assert.equal(blocked.body.code, 'send_preconditions_failed');

    // Added back, they are a new signer (a new reference), last; the fields are theirs again.
    await add(id, { signer_id: 'client-22' }).expect(201);
    await add(id, { signer_id: 'client-23' }).expect(201);
    await remove(id, 'client-21').expect(200);
    await ctx.h.http
      .patch(`/v1.1/requests/${id}`)
      .set(ctx.headers)
      .send({
        fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: 'client-22' })),
      })
      .expect(200);
    const ready = await read(id);
    assert.deepEqual(signerIds(ready), ['client-22', 'client-23'], 'in the order they were added');
    assert.notEqual(ready.signers[0]!.signer_ref, removed.signers[0]!.signer_ref);
    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
  });

  it('refuses what the rules forbid and anything once sent, writing nothing', async () => {
    const id = await draft([{ signer_id: 'client-24' }]);
    const before = await read(id);
    const signers = await countRows(ctx.h.pool, 'request_signers');
    const paths = async (body: unknown) =>
      ((await add(id, body).expect(422)).body.errors as { path: string }[]).map((e) => e.path);
    assert.deepEqual(await paths({ signer_id: 'client-24' }), ['signer_id']);
    assert.deepEqual(await paths({ signer_id: 'client-25', order: 1 }), ['order']);
    assert.deepEqual(await paths({ signer_id: 'client-25', authentication: { method: 'sms_otp' } }), [
      'signer.mobile_number',
    ]);
    assert.deepEqual(await paths({ signer_id: 'client-25', nickname: 'x' }), ['nickname']);
    assert.deepEqual(await paths({ signer_id: '' }), ['signer_id']);
    const last = await remove(id, 'client-24').expect(409);
    assert.equal(last.body.code, 'last_signer');
    assert.equal((await remove(id, 'nobody').expect(404)).body.code, 'not_found');
    assert.deepEqual(await read(id), before, 'nothing written');
    assert.equal(await countRows(ctx.h.pool, 'request_signers'), signers);
    assert.deepEqual(await history(id), []);

    await add(id, { signer_id: 'client-25' }).expect(201);
    await ctx.h.http
      .patch(`/v1.1/requests/${id}`)
      .set(ctx.headers)
      .send({
        fields: [
          { name: 'signature', assigned_to: 'client-24' },
          { name: 'full_name', assigned_to: 'client-25' },
          { name: 'agree', assigned_to: 'client-25' },
        ],
      })
      .expect(200);
    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
    const sent = await read(id);
    const late = await add(id, { signer_id: 'client-26' }).expect(409);
    assert.equal(late.body.code, 'invalid_state');
    assert.match(
      late.body.detail as string,
      /^Signers are added and removed only while the Request is a draft; this one is sent/,
    );
    assert.equal((await remove(id, 'client-25').expect(409)).body.code, 'invalid_state');
    assert.deepEqual(await read(id), sent, 'nothing written');
  });

  it('an Idempotency-Key answers a retry as the first call, adding one signer', async () => {
    const id = await draft([{ signer_id: 'client-27' }]);
    const first = await add(id, { signer_id: 'client-28' }, 'add-28').expect(201);
    const again = await add(id, { signer_id: 'client-28' }, 'add-28').expect(201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(signerIds(await read(id)), ['client-27', 'client-28']);
  });
});
