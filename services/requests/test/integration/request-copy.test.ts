import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { countRows, SITE_A, SITE_B, principal } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';

/**
 * ADR 3330 against real Postgres: any Request copied into a new draft by the create's rules
 * and write: its contracts, signers with their settings (an access code's hash carried
 * over), fields, render_data, cc and reminders; reached at the Site's details as they are
 * now; naming its source (ADR 3410); a refused copy writes nothing.
 */
describe('requests service: a Request copied into a new draft (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx, read } = historyFixture('request-copy');
  const copy = (id: string, body?: object, headers = ctx.headers) => {
    const call = ctx.h.http.post(`/v1.1/requests/${id}/copy`).set(headers);
    return body === undefined ? call : call.send(body);
  };
  const accessCodeHashes = async (id: string) =>
    ctx.h.pool.anyFirst(
      sql.unsafe`SELECT c.access_code_hash FROM signer_challenges c JOIN request_signers rs USING (request_id, signer_ref)
                 WHERE rs.request_id = ${id} ORDER BY rs.position`,
    );
  /** A sent Request of two signers in order, one with an access code, with values, render_data, cc and reminders. */
  const sentRequest = async () => {
    const created = await ctx.h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(ctx.headers)
      .send({
        contracts: [ctx.template],
        signers: [
          {
            signer_id: 'copy-ann@example.com',
            send_to: { email: true },
            order: 1,
            authentication: { method: 'access_code', access_code: 'tulip-42' },
            locale: 'fr',
          },
          {
            signer_id: 'copy-bob',
            signer: { mobile_number: '5552345678' },
            send_to: { mobile_number: true },
            order: 2,
          },
        ],
        fields: [
          { name: 'full_name', assigned_to: 'copy-ann@example.com', default_value: 'Ann Lee' },
          { name: 'agree', assigned_to: 'copy-bob' },
          { name: 'signature', assigned_to: 'copy-bob' },
        ],
        render_data: { client_name: 'Acme', start_date: '2030-01-01' },
        cc: ['legal@example.com'],
        reminder_interval_days: 4,
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        redirect_url: 'https://client.example/done',
      })
      .expect(201);
    const id = (created.body as RequestView).id;
    await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers).expect(200);
    return read(id);
  };
  const made = (view: RequestView) => ({
    contracts: view.contracts,
    signers: view.signers.map((s) => [
      s.signer_id,
      s.email,
      s.mobile_number,
      s.order,
      s.authentication,
      s.locale,
    ]),
    fields: view.fields,
    render_data: view.render_data,
    cc: view.cc,
    redirect_url: view.redirect_url,
    reminder_interval_days: view.reminder_interval_days,
  });

  it('makes a new draft of a sent Request: the same make-up and settings, the same access code, no expiry, pending signers', async () => {
    const source = await sentRequest();
    const answer = await copy(source.id).expect(201);
    const draft = answer.body as RequestView;
    assert.equal(answer.headers.location, `/v1.1/requests/${draft.id}`);
    assert.notEqual(draft.id, source.id);
    assert.deepEqual(made(draft), made(source));
    assert.deepEqual(
      [draft.state, draft.expires_at, draft.sent_at, draft.signers.map((s) => s.state)],
      ['draft', null, null, ['pending', 'pending']],
    );
    assert.deepEqual(await read(draft.id), draft, 'stored as answered');
    // It names its source (ADR 3410).
    assert.deepEqual([draft.copied_from, source.copied_from], [source.id, null]);
    const copies = async (query: string, status = 200) =>
      (await ctx.h.http.get(`/v1.1/sites/${SITE_A.id}/requests?${query}`).set(ctx.headers).expect(status))
        .body as { data: RequestView[]; errors?: { path: string }[] };
    assert.deepEqual(
      (await copies(`copied_from=${source.id.toUpperCase()}`)).data.map((r) => r.id),
      [draft.id],
      'listed as its copies',
    );
    assert.deepEqual((await copies(`copied_from=${draft.id}`)).data, [], 'a copy nobody copied has none');
    assert.deepEqual(
      (await copies('copied_from=nope', 400)).errors?.map((e) => e.path),
      ['copied_from'],
    );
    const [sourceHashes, copyHashes] = [await accessCodeHashes(source.id), await accessCodeHashes(draft.id)];
    assert.equal(copyHashes.length, 1);
    assert.equal(copyHashes[0], sourceHashes[0], 'the code the signer was given');
    assert.deepEqual(await read(source.id), source, 'the source is unchanged');
    // It is a draft like any other: sent, its signers get new links.
    await ctx.h.http.post(`/v1.1/requests/${draft.id}/send`).set(ctx.headers).expect(200);
    const copied = await read(draft.id);
    assert.notEqual(copied.signers[0]!.request_url, source.signers[0]!.request_url);
  });

  it('reaches a signer at the Site’s details as they are now, and copies a cancelled Request', async () => {
    const source = await sentRequest();
    await ctx.h.http.post(`/v1.1/requests/${source.id}/cancel`).set(ctx.headers).expect(200);
    await ctx.h.http
      .put(`/v1.1/sites/${SITE_A.id}/signers/copy-bob`)
      .set(ctx.headers)
      .send({ signer: { mobile_number: '5559876543' } })
      .expect(200);
    const draft = (await copy(source.id, {}).expect(201)).body as RequestView;
    assert.equal(draft.signers[1]!.mobile_number, '15559876543');
    assert.equal((await read(source.id)).signers[1]!.mobile_number, '15552345678', 'fixed at its send');
  });

  it('refuses a copy the create’s rules forbid, another Site’s Request and a bad body, writing nothing', async () => {
    const source = await sentRequest();
    const requests = await countRows(ctx.h.pool, 'requests');
    await ctx.h.http.post(`/v1.1/contracts/${ctx.template}/archive`).set(ctx.headers).expect(200);
    try {
      const refused = await copy(source.id).expect(422);
      assert.deepEqual(
        (refused.body.errors as { path: string; message: string }[]).map((e) => `${e.path}: ${e.message}`),
        [`contracts[0]: contract template ${ctx.template} is archived: unarchive it, or use another`],
      );
    } finally {
      await ctx.h.http.post(`/v1.1/contracts/${ctx.template}/unarchive`).set(ctx.headers).expect(200);
    }
    await copy(source.id, {}, await principal([SITE_B])).expect(404);
    await copy('00000000-0000-4000-8000-000000000000').expect(404);
    assert.deepEqual(
      ((await copy(source.id, { test_mode: 'yes' }).expect(422)).body.errors as { path: string }[]).map(
        (e) => e.path,
      ),
      ['test_mode'],
    );
    await copy(source.id, { state: 'draft' }).expect(422);
    assert.equal(await countRows(ctx.h.pool, 'requests'), requests, 'nothing written');
  });

  it('makes a live copy of a test-mode Request on request, and one copy for one Idempotency-Key', async () => {
    const source = await sentRequest();
    const test = (await copy(source.id, { test_mode: true }).expect(201)).body as RequestView;
    assert.equal(test.test_mode, true);
    const live = (await copy(test.id, { test_mode: false }).expect(201)).body as RequestView;
    assert.equal(live.test_mode, false);
    const requests = await countRows(ctx.h.pool, 'requests');
    const first = await copy(source.id).set('Idempotency-Key', `copy-${source.id}`).expect(201);
    const again = await copy(source.id).set('Idempotency-Key', `copy-${source.id}`).expect(201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(await countRows(ctx.h.pool, 'requests'), requests + 1, 'one copy');
  });
});
