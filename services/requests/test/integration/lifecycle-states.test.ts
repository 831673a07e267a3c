import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { SENDER_REF, type RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { eventually } from '@esign/testing';
import { useCases } from '../../src/application/use-cases.js';
import { lifecycleFixture } from '../support/lifecycle-fixture.js';
import { principal, SITE_A } from '../support/harness.js';

const HOUR = 3_600_000;

describe('requests service lifecycle, cancel, expiry and remind (real Postgres and RabbitMQ)', function () {
  this.timeout(60_000);
  const { ctx, create, post, openUrl } = lifecycleFixture('lifecycle-states');

  it('cancels a sent Request: its Execution URLs stop working and request.cancelled is published', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    assert.ok(E.isRight(await openUrl(view)));
    const cancelled = await post(view.id, 'cancel').send({}).expect(200);
    assert.equal(cancelled.body.state, 'cancelled');
    assert.ok(cancelled.body.cancelled_at);
    assert.deepEqual(await openUrl(view), E.left({ _tag: 'Closed', state: 'cancelled' }));
    const [event] = await eventually(() =>
      Promise.resolve(
        ctx.sink.of('request.cancelled', view.id).length > 0
          ? ctx.sink.of('request.cancelled', view.id)
          : undefined,
      ),
    );
    assert.deepEqual(event!.data, { request_id: view.id, previous_state: 'sent' });
    assert.equal((await post(view.id, 'cancel').expect(409)).body.state, 'cancelled');
    assert.equal((await post(view.id, 'send').expect(409)).body.code, 'invalid_state');
    const unknownBody = await post(view.id, 'cancel').send({ notify: true }).expect(422);
    assert.deepEqual(unknownBody.body.errors, [{ path: 'notify', message: 'unknown field' }]);
  });

  it('cancels with a reason and tells the signers who were told, or refuses a bad reason changing nothing (ADR 3500)', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    const blank = await post(view.id, 'cancel').send({ reason: ' \n ', notify_signers: true }).expect(422);
    assert.deepEqual(blank.body.errors, [{ path: 'reason', message: 'must not be blank' }]);
    const notBoolean = await post(view.id, 'cancel').send({ notify_signers: 'yes' }).expect(422);
    const paths = (notBoolean.body as { errors: { path: string }[] }).errors.map((e) => e.path);
    assert.deepEqual(paths, ['notify_signers']);
    assert.ok(E.isRight(await openUrl(view)), 'still sent: nothing was written');

    const body = { reason: '  The rent is wrong.\r\nA new one follows. ', notify_signers: true };
    const cancelled = await post(view.id, 'cancel').send(body).expect(200);
    assert.equal(cancelled.body.state, 'cancelled');
    const published = (type: string, id = view.id) =>
      eventually(() => Promise.resolve(ctx.sink.of(type, id).length > 0 ? ctx.sink.of(type, id) : undefined));
    const [event] = await published('request.cancelled');
    const reason = 'The rent is wrong.\nA new one follows.';
    assert.deepEqual(event!.data, {
      request_id: view.id,
      previous_state: 'sent',
      reason,
      signers_notified: true,
    });
    const [notice] = await published('notice.cancelled');
    const data = notice!.data as { reason: string; signers: { signer_id: string; send_to: unknown }[] };
    assert.equal(data.reason, reason);
    assert.deepEqual(
      data.signers.map((s) => [s.signer_id, s.send_to]),
      [
        ['alice@example.com', { email: true, mobile_number: false }],
        ['bob', { email: false, mobile_number: true }],
      ],
      'carol was never sent a message, so she is not told either',
    );
    const history = await ctx.h.http
      .get(`/v1.1/requests/${view.id}/events?order=desc`)
      .set(ctx.headers)
      .expect(200);
    assert.deepEqual(history.body.data[0].data, event!.data, 'the history keeps the reason');
    // The signers' links say why, as their e-mail did.
    const page = async (v: RequestView) => {
      const url = new URL(v.signers[0]!.request_url);
      return (await ctx.h.http.get(`${url.pathname}${url.search}`).expect(410)).text;
    };
    assert.match(await page(view), /The reason given: The rent is wrong\.\s+A new one follows\./);
    // However many entries come after the cancel (delivery failures of its notice), it is found.
    await ctx.h.pool.query(sql.unsafe`
      INSERT INTO request_events (request_id, site_id, payload)
      SELECT request_id, site_id, payload FROM request_events, generate_series(1, 120)
      WHERE request_id = ${view.id} AND payload->>'type' = 'request.sent'`);
    assert.match(await page(view), /The reason given: The rent is wrong\./);

    // A draft's signers were never told: the cancel says nobody was.
    const draft = await create();
    await post(draft.id, 'cancel').send({ notify_signers: true }).expect(200);
    const [quiet] = await published('request.cancelled', draft.id);
    assert.deepEqual(quiet!.data, { request_id: draft.id, previous_state: 'draft' });
    assert.deepEqual(ctx.sink.of('notice.cancelled', draft.id), []);
    // A reason the signers were not told stays off their page.
    const untold = await create();
    await post(untold.id, 'send').expect(200);
    await post(untold.id, 'cancel').send({ reason: 'Internal: client unpaid' }).expect(200);
    const closed = await page(untold);
    assert.match(closed, /This request was cancelled/);
    assert.doesNotMatch(closed, /reason|unpaid/i);
  });

  it('kills the Execution URLs at expires_at, and the sweep marks the Request expired with its event', async () => {
    // Made by a user whose address the principal carries: told of the expiry (ADR 3520).
    const owner = await principal([SITE_A], 'owner@acme.example');
    const view = await create(
      { expires_at: new Date(ctx.h.deps.clock.now().getTime() + HOUR).toISOString() },
      owner,
    );
    await post(view.id, 'send').expect(200);
    assert.ok(E.isRight(await openUrl(view)));
    ctx.h.clock.advance(HOUR);
    assert.deepEqual(await openUrl(view), E.left({ _tag: 'Expired' }), 'dead at once, before any sweep');
    assert.equal((await post(view.id, 'remind').expect(409)).body.code, 'request_expired');
    const swept = await useCases(ctx.h.deps).expireDueRequests(100)();
    assert.ok(E.isRight(swept) && swept.right >= 1);
    const read = await ctx.h.http.get(`/v1.1/requests/${view.id}`).set(ctx.headers).expect(200);
    assert.equal(read.body.state, 'expired');
    assert.ok(read.body.expired_at);
    await eventually(() =>
      Promise.resolve(ctx.sink.of('request.expired', view.id).length > 0 ? true : undefined),
    );
    const [notice] = await eventually(() =>
      Promise.resolve(
        ctx.sink.of('notice.expired', view.id).length > 0
          ? ctx.sink.of('notice.expired', view.id)
          : undefined,
      ),
    );
    const told = (notice!.data as { signers: { signer_ref: string; email: string; request_url: string }[] })
      .signers;
    assert.deepEqual(told, [
      {
        signer_id: 'owner@acme.example',
        signer_ref: SENDER_REF,
        email: 'owner@acme.example',
        mobile_number: null,
        send_to: { email: true, mobile_number: false },
        request_url: `${ctx.h.deps.publicBaseUrl.replace(/\/$/, '')}/app/requests/${view.id}`,
        locale: 'en',
      },
    ]);
    assert.deepEqual(
      await useCases(ctx.h.deps).expireDueRequests(100)(),
      E.right(0),
      'nothing left to expire',
    );
    assert.equal((await post(view.id, 'cancel').expect(409)).body.state, 'expired');
  });

  it('reminds the signers who have not signed, no more often than the policy allows', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    const soon = await post(view.id, 'remind').expect(429);
    assert.equal(soon.body.code, 'remind_too_soon');
    assert.equal(soon.headers['retry-after'], '3600');
    ctx.h.clock.advance(HOUR);
    await ctx.h.pool.query(
      sql.unsafe`UPDATE request_signers SET state = 'signed', signed_at = now() WHERE request_id = ${view.id} AND signer_id = 'alice@example.com'`,
    );
    const reminded = await post(view.id, 'remind').expect(200);
    assert.equal(reminded.body.remind_count, 1);
    const [event] = await eventually(() =>
      Promise.resolve(
        ctx.sink.of('request.reminded', view.id).length > 0
          ? ctx.sink.of('request.reminded', view.id)
          : undefined,
      ),
    );
    assert.deepEqual(
      (event!.data as { signers: { signer_id: string }[] }).signers.map((s) => s.signer_id),
      ['bob'],
      'only those who have not signed and can be reached',
    );
    assert.equal((await post(view.id, 'remind').expect(429)).headers['retry-after'], '3600');
    assert.equal((await post(randomUUID(), 'remind').expect(404)).body.code, 'not_found');
  });
});
