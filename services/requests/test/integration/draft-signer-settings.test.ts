import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import * as t from 'io-ts';
import { SITE_A } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';

/**
 * ADR 3290 against real Postgres: a draft's signer's order, authentication and language
 * are changed with `PATCH /v1.1/requests/:id/signers/:signer_id`, their check replaced or
 * removed in the transition's statement; a part-ordered draft is not sent; a sent
 * Request's are fixed.
 */
describe('requests service: a draft’s signer’s order, authentication and language (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx } = historyFixture('draft-signer-settings');
  const read = async (id: string) =>
    (await ctx.h.http.get(`/v1.1/requests/${id}`).set(ctx.headers).expect(200)).body as RequestView;
  const patch = (id: string, signerId: string, body: unknown) =>
    ctx.h.http
      .patch(`/v1.1/requests/${id}/signers/${encodeURIComponent(signerId)}`)
      .set(ctx.headers)
      .send(body as object);
  const challenges = (id: string) =>
    db.any(
      ctx.h.pool,
      t.type({ signer_id: t.string, method: t.string, hashed: t.boolean }),
      sql.unsafe`SELECT rs.signer_id, c.method, c.access_code_hash IS NOT NULL AS hashed
                 FROM signer_challenges c JOIN request_signers rs USING (request_id, signer_ref)
                 WHERE rs.request_id = ${id} ORDER BY rs.position`,
    );
  const settings = (view: RequestView) =>
    view.signers.map((s) => [s.signer_id, s.order, s.authentication?.method ?? null, s.locale]);
  const draft = async () =>
    (
      (
        await ctx.h.http
          .post(`/v1.1/sites/${SITE_A.id}/requests`)
          .set(ctx.headers)
          .send({
            contracts: [ctx.template],
            signers: [
              { signer_id: 'ann@example.com', send_to: { email: true } },
              { signer_id: 'ben@example.com', authentication: { method: 'email_otp' } },
            ],
            fields: [
              { name: 'full_name', assigned_to: 'ann@example.com' },
              { name: 'agree', assigned_to: 'ann@example.com' },
              { name: 'signature', assigned_to: 'ben@example.com' },
            ],
          })
          .expect(201)
      ).body as RequestView
    ).id;

  it('moves a draft into signing in order a signer at a time; the send waits until every signer has one', async () => {
    const id = await draft();
    const halfway = (await patch(id, 'ann@example.com', { order: 1, locale: 'fr' }).expect(200))
      .body as RequestView;
    assert.deepEqual(settings(halfway), [
      ['ann@example.com', 1, null, 'fr'],
      ['ben@example.com', null, 'email_otp', null],
    ]);
    assert.deepEqual(await read(id), halfway, 'stored as answered');
    const refused = await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(422);
    assert.equal(refused.body.code, 'send_preconditions_failed');
    assert.equal(
      refused.body.detail,
      'Every signer needs a signing order, or none may have one; without one: ben@example.com.',
    );
    assert.deepEqual(
      (refused.body.errors as { path: string }[]).map((e) => e.path),
      ['signers[1].order'],
    );
    await patch(id, 'ben@example.com', { order: 2 }).expect(200);
    const history = (await ctx.h.http.get(`/v1.1/requests/${id}/events`).set(ctx.headers).expect(200))
      .body as {
      data: { type: string; data: { signer_id: string; changed: string[] } }[];
    };
    assert.deepEqual(
      history.data.map((e) => [e.type, e.data.signer_id, e.data.changed]),
      [
        ['request.signer_updated', 'ann@example.com', ['order', 'locale']],
        ['request.signer_updated', 'ben@example.com', ['order']],
      ],
    );
    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
    const sent = await read(id);
    assert.deepEqual(
      sent.signers.map((s) => s.turn),
      [true, false],
      'signed in order once sent',
    );
    const late = await patch(id, 'ben@example.com', { order: 1 }).expect(409);
    assert.equal(
      late.body.detail,
      "A signer's order, authentication and locale are changed only while the Request is a draft; this one is sent.",
    );
    assert.deepEqual(await read(id), sent, 'nothing written');
  });

  it('replaces a signer’s check (an access code, hashed) and removes it, in the change’s statement', async () => {
    const id = await draft();
    await patch(id, 'ann@example.com', {
      authentication: { method: 'access_code', access_code: '8642' },
    }).expect(200);
    assert.deepEqual(await challenges(id), [
      { signer_id: 'ann@example.com', method: 'access_code', hashed: true },
      { signer_id: 'ben@example.com', method: 'email_otp', hashed: false },
    ]);
    await patch(id, 'ben@example.com', {
      authentication: { method: 'access_code', access_code: '1357' },
    }).expect(200);
    await patch(id, 'ann@example.com', { authentication: null }).expect(200);
    assert.deepEqual(await challenges(id), [
      { signer_id: 'ben@example.com', method: 'access_code', hashed: true },
    ]);
    assert.deepEqual(settings(await read(id)), [
      ['ann@example.com', null, null, null],
      ['ben@example.com', null, 'access_code', null],
    ]);

    // Refused as at create, writing nothing.
    const before = await read(id);
    const noCode = await patch(id, 'ann@example.com', { authentication: { method: 'access_code' } }).expect(
      422,
    );
    assert.deepEqual(
      (noCode.body.errors as { path: string }[]).map((e) => e.path),
      ['authentication.access_code'],
    );
    const badLocale = await patch(id, 'ann@example.com', { locale: 'not a language!' }).expect(422);
    assert.deepEqual(
      (badLocale.body.errors as { path: string }[]).map((e) => e.path),
      ['locale'],
    );
    assert.deepEqual(await read(id), before);
    assert.equal((await challenges(id)).length, 1);
  });
});
