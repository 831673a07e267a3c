import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { postgresRequestRepository } from '../../src/adapters/postgres/postgres-request-repository.js';
import { executionUrl } from '../../src/application/deps.js';
import { envelopes } from '../../src/application/events.js';
import { cancel } from '../../src/domain/signature-request.js';
import { correctSigner } from '../../src/domain/signer-correction.js';
import { principal, publishedTemplate, SITE_A, startHarness, type Harness } from '../support/harness.js';

/**
 * ADR 2800 against real Postgres: a transition read without a lock is stored only if the
 * Request's version is still the one read, and all of it or nothing; racing transitions
 * of one Request each decide on what they find.
 */
describe('requests service: transitions written only if the Request is unchanged (real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let template: number;
  let headers: Record<string, string>;
  /** Runs before each statement the service sends (the fallback test sets it). */
  let interfere: ((sql: string, inTransaction: boolean) => Promise<void>) | undefined;

  before(async () => {
    h = await startHarness('transition-writes', {
      interceptors: [
        {
          name: 'interfere',
          beforeQueryExecution: async (context, query) => {
            await interfere?.(query.sql, context.transactionId !== null);
            return null;
          },
        },
      ],
    });
    template = await publishedTemplate(h.http);
    headers = await principal();
  });

  after(async () => {
    await h.close();
  });

  const create = async (): Promise<RequestView> =>
    (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [template],
          signers: [
            { signer_id: 'alice@example.com', send_to: { email: true } },
            { signer_id: 'bob', signer: { mobile_number: '5552001111' }, send_to: { mobile_number: true } },
          ],
          fields: [
            { name: 'full_name', assigned_to: 'alice@example.com' },
            { name: 'agree', assigned_to: 'bob' },
            { name: 'signature', assigned_to: 'bob' },
          ],
        })
        .expect(201)
    ).body as RequestView;

  const post = (id: string, action: string) => h.http.post(`/v1.1/requests/${id}/${action}`).set(headers);

  const outboxRows = async (requestId: string) =>
    db.any(
      h.pool,
      t.type({ type: t.string }),
      sql.unsafe`SELECT type FROM outbox WHERE envelope->>'aggregate_id' = ${requestId} ORDER BY seq`,
    );

  it('stores nothing of a transition whose Request moved on since it was read (ADR 2800)', async () => {
    const view = await create();
    const requests = postgresRequestRepository(h.pool);
    const read = async () => {
      const found = await requests.find(view.id, [SITE_A.id])();
      assert.ok(E.isRight(found) && O.isSome(found.right));
      return found.right.value;
    };
    const stale = await read();
    await post(view.id, 'send').expect(200);
    const snapshot = () =>
      h.pool.one(sql.unsafe`
        SELECT r.state, r.version, r.updated_at::text,
               (SELECT json_agg(rs ORDER BY rs.position) FROM request_signers rs WHERE rs.request_id = r.id) AS signers,
               (SELECT count(*) FROM outbox o WHERE o.envelope->>'aggregate_id' = r.id::text)::int AS events
        FROM requests r WHERE r.id = ${view.id}`);
    const before = await snapshot();
    assert.equal(before.version, 1);
    // A cancel decided on the draft it read, with a signer changed and its event: the
    // send stored since, so the write must leave the row, the signers and the outbox.
    const cancelOf = (previous: typeof stale) => {
      const decided = cancel(previous, '2030-01-01T00:00:20.000Z');
      assert.ok(E.isRight(decided));
      const request = {
        ...decided.right.request,
        signers: decided.right.request.signers.map((signer, i) =>
          i === 0
            ? {
                ...signer,
                link: { version: signer.link.version + 1, issuedAt: '2030-01-01T00:00:20.000Z' },
              }
            : signer,
        ),
      };
      const events = envelopes(
        { ids: h.deps.ids, executionUrl: executionUrl(h.deps) },
        request,
        decided.right.events,
      );
      return { request, events };
    };
    const refused = cancelOf(stale);
    assert.deepEqual(
      await requests.updateIfCurrent(stale, refused.request, refused.events)(),
      E.right(false),
    );
    assert.deepEqual(await snapshot(), before);
    // Read again, the same change is stored whole.
    const current = await read();
    const { request: cancelled, events } = cancelOf(current);
    assert.deepEqual(await requests.updateIfCurrent(current, cancelled, events)(), E.right(true));
    const after = await snapshot();
    assert.equal(after.state, 'cancelled');
    assert.equal(after.version, 2);
    assert.equal(after.events, before.events + 1);
    assert.notDeepEqual(after.signers, before.signers);
    // What it stored is the current copy now: a change made from it is stored too.
    const later = { ...cancelled, updatedAt: '2030-01-01T00:00:21.000Z' };
    assert.deepEqual(await requests.updateIfCurrent(cancelled, later, [])(), E.right(true));
    assert.equal((await snapshot()).version, 3);
  });

  it('keeps a correction for the audit trail exactly when its transition is stored (ADR 3140)', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    const requests = postgresRequestRepository(h.pool);
    const found = await requests.find(view.id, [SITE_A.id])();
    assert.ok(E.isRight(found) && O.isSome(found.right));
    const stale = found.right.value;
    await h.http
      .patch(`/v1.1/requests/${view.id}/signers/bob`)
      .set(headers)
      .send({ signer: { mobile_number: '5552002222' } })
      .expect(200);
    const correctionOf = (previous: typeof stale) => {
      const at = new Date(Date.parse(previous.updatedAt) + 1000).toISOString();
      const order = {
        signerId: 'alice@example.com',
        correction: { email: 'alice@example.org' },
        notify: false,
      };
      const decided = correctSigner(previous, { ...order, by: 'ops@example.com' }, at);
      assert.ok(E.isRight(decided));
      const { request, events } = decided.right;
      return {
        request,
        events: envelopes({ ids: h.deps.ids, executionUrl: executionUrl(h.deps) }, request, events),
      };
    };
    const refused = correctionOf(stale);
    assert.deepEqual(
      await requests.updateIfCurrent(stale, refused.request, refused.events)(),
      E.right(false),
    );
    const kept = async () => {
      const listed = await requests.corrections(view.id)();
      assert.ok(E.isRight(listed));
      return listed.right;
    };
    const bob = view.signers[1]!.signer_ref;
    assert.deepEqual(
      (await kept()).map((c) => [
        c.signerRef,
        c.by,
        c.previous.contact.mobileNumber,
        c.current.contact.mobileNumber,
      ]),
      [[bob, 'user-1', '15552001111', '15552002222']],
      'the call made through the API, and not the refused one',
    );
    const again = await requests.find(view.id, [SITE_A.id])();
    assert.ok(E.isRight(again) && O.isSome(again.right));
    const stored = correctionOf(again.right.value);
    assert.deepEqual(
      await requests.updateIfCurrent(again.right.value, stored.request, stored.events)(),
      E.right(true),
    );
    const [, alice] = await kept();
    assert.deepEqual(alice, {
      signerRef: view.signers[0]!.signer_ref,
      at: stored.request.updatedAt,
      by: 'ops@example.com',
      previous: {
        contact: { email: 'alice@example.com', mobileNumber: null },
        sendTo: { email: true, sms: false },
      },
      current: {
        contact: { email: 'alice@example.org', mobileNumber: null },
        sendTo: { email: true, sms: false },
      },
      linkReplaced: true,
    });
  });

  it('lets one of eight racing transitions of one Request win at a time, each deciding on the state it finds (ADR 2800)', async () => {
    const view = await create();
    const sends = await Promise.all(Array.from({ length: 8 }, () => post(view.id, 'send')));
    assert.deepEqual(sends.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409]);
    const cancels = await Promise.all(Array.from({ length: 8 }, () => post(view.id, 'cancel')));
    assert.deepEqual(cancels.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409]);
    assert.ok(cancels.every((r) => r.status === 200 || r.body.state === 'cancelled'));
    const rows = await outboxRows(view.id);
    assert.deepEqual(
      rows.map((r) => r.type),
      ['request.created', 'request.sent', 'request.cancelled'],
    );
    const version = await h.pool.oneFirst(sql.unsafe`SELECT version FROM requests WHERE id = ${view.id}`);
    assert.equal(version, 2);
  });

  it('queues on the lock after three writes found the Request changed, and then stores the send once (ADR 2800)', async () => {
    const view = await create();
    // Another writer commits a change of the Request between each unlocked read and its
    // write: a version bump on another connection, as a racing transition would.
    let bumps = 0;
    interfere = async (statement, inTransaction) => {
      if (inTransaction || bumps >= 3 || !/WITH guard AS/.test(statement)) return;
      bumps++;
      await h.pool.query(sql.unsafe`UPDATE requests SET version = version + 1 WHERE id = ${view.id}`);
    };
    h.statements.length = 0;
    try {
      const sent = await post(view.id, 'send').expect(200);
      assert.equal(sent.body.state, 'sent');
    } finally {
      interfere = undefined;
    }
    assert.equal(bumps, 3);
    const writes = h.statements.filter((st) => /WITH guard AS/.test(st.sql));
    assert.equal(writes.length, 4, 'three writes that missed, then the one under the lock');
    assert.ok(writes.slice(0, 3).every((st) => st.transactionId === null));
    const lock = h.statements.find((st) => /FOR UPDATE/.test(st.sql));
    assert.ok(lock?.transactionId, 'the fourth attempt locks the Request in a transaction');
    assert.equal(writes[3]!.transactionId, lock.transactionId);
    assert.deepEqual(
      (await outboxRows(view.id)).map((r) => r.type),
      ['request.created', 'request.sent'],
    );
    const version = await h.pool.oneFirst(sql.unsafe`SELECT version FROM requests WHERE id = ${view.id}`);
    assert.equal(version, 4, 'three bumps and the send');
  });
});
