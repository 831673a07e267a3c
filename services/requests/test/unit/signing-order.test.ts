import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { createSignatureRequest } from '../../src/domain/request-creation.js';
import { decline, executionAccess, remind, send, sign } from '../../src/domain/signature-request.js';
import { currentOrder, hasTurn, turnStartedAt } from '../../src/domain/signing-order.js';
import { body, creationInput, draft, later, left, NOW, right, signer } from '../support/builders.js';

/** Three signers with orders 1, 1 and 2, every field assigned, as issue 20 describes. */
const ordered = (orders: readonly (number | null)[] = [1, 1, 2]) =>
  draft({
    signers: orders.map((order, i) =>
      signer({
        signerId: `s${i}@example.com`,
        signerRef: `ref${i}`,
        contact: { email: `s${i}@example.com`, mobileNumber: null },
        order,
      }),
    ),
    fields: [{ name: 'signature', defaultValue: null, assignedTo: 's0@example.com' }],
  });

const refs = (signers: readonly { signerRef: string }[]) => signers.map((s) => s.signerRef);
const policy = { minIntervalSeconds: 60, maxReminders: 3 };
const LIFETIME = 30 * 86_400_000;

describe('requests domain: signing in order', () => {
  it('on send, notifies only the lowest order; equal orders together', () => {
    const { request, events } = right(send(ordered(), NOW));
    assert.equal(events.length, 1);
    const [event] = events;
    assert.equal(event?.type, 'request.sent');
    assert.deepEqual(refs(event?.type === 'request.sent' ? event.notify : []), ['ref0', 'ref1']);
    assert.equal(currentOrder(request), 1);
    assert.deepEqual(
      request.signers.map((s) => hasTurn(request, s)),
      [true, true, false],
    );
  });

  it('starts the next order once every signer of the current one has signed, exactly once', () => {
    const sentRequest = right(send(ordered(), NOW)).request;
    const first = right(sign(sentRequest, 'ref0', later(NOW, 10)));
    assert.deepEqual(
      first.events.map((e) => e.type),
      ['request.signed'],
      'one of two parallel signers signing starts nothing',
    );
    assert.equal(currentOrder(first.request), 1);
    const second = right(sign(first.request, 'ref1', later(NOW, 20)));
    assert.deepEqual(
      second.events.map((e) => e.type),
      ['request.signed', 'request.turn_started'],
    );
    const turn = second.events[1];
    assert.ok(turn?.type === 'request.turn_started');
    assert.equal(turn.order, 2);
    assert.deepEqual(refs(turn.notify), ['ref2']);
    assert.equal(
      second.request.signers[2]!.link.issuedAt,
      later(NOW, 20),
      'the next signer’s link counts its lifetime from their turn',
    );
    assert.equal(second.request.signers[2]!.link.version, 0, 'the same link: no new version');
    assert.equal(currentOrder(second.request), 2);
    const last = right(sign(second.request, 'ref2', later(NOW, 30)));
    assert.deepEqual(
      last.events.map((e) => e.type),
      ['request.signed', 'request.completed', 'notice.completed'],
      'the last signature completes and starts no turn',
    );
    assert.equal(last.request.state, 'completed');
  });

  it('skips nothing: orders 1, 3, 7 run one after another', () => {
    let request = right(send(ordered([7, 1, 3]), NOW)).request;
    const turns: number[] = [];
    for (const ref of ['ref1', 'ref2']) {
      const t = right(sign(request, ref, NOW));
      turns.push(...t.events.flatMap((e) => (e.type === 'request.turn_started' ? [e.order] : [])));
      request = t.request;
    }
    assert.deepEqual(turns, [3, 7]);
  });

  it('refuses a signature, and the Execution URL, before the signer’s turn', () => {
    const request = right(send(ordered(), NOW)).request;
    assert.deepEqual(left(sign(request, 'ref2', NOW)), {
      _tag: 'NotYourTurn',
      signerRef: 'ref2',
      order: 2,
      currentOrder: 1,
    });
    assert.deepEqual(left(decline(request, 'ref2', NOW, 'no')), {
      _tag: 'NotYourTurn',
      signerRef: 'ref2',
      order: 2,
      currentOrder: 1,
    });
    assert.deepEqual(left(executionAccess(request, { signerRef: 'ref2', version: 0 }, NOW, LIFETIME)), {
      _tag: 'NotYourTurn',
      order: 2,
      currentOrder: 1,
    });
    assert.ok(E.isRight(executionAccess(request, { signerRef: 'ref0', version: 0 }, NOW, LIFETIME)));
  });

  it('a decline in the first order ends the Request: the later order is never started', () => {
    const request = right(send(ordered(), NOW)).request;
    const declined = right(decline(request, 'ref0', NOW, 'wrong price'));
    assert.equal(declined.request.state, 'declined');
    assert.deepEqual(
      declined.events.map((e) => e.type),
      ['request.declined', 'notice.declined'],
    );
    const notice = declined.events[1];
    assert.ok(notice?.type === 'notice.declined');
    assert.deepEqual(refs(notice.notify), ['ref1'], 'only the other signer already told learns of it');
    assert.equal(notice.reason, 'wrong price');
    assert.deepEqual(
      left(executionAccess(declined.request, { signerRef: 'ref2', version: 0 }, NOW, LIFETIME)),
      {
        _tag: 'Closed',
        state: 'declined',
      },
    );
  });

  it('on completion, every signer with an e-mail address is to be told', () => {
    let request = right(send(ordered([null, null, null]), NOW)).request;
    request = {
      ...request,
      signers: request.signers.map((s, i) =>
        i === 1 ? { ...s, contact: { email: null, mobileNumber: '15550001111' } } : s,
      ),
    };
    let last: ReturnType<typeof sign> | undefined;
    for (const ref of ['ref0', 'ref1', 'ref2']) {
      last = sign(request, ref, NOW);
      request = right(last).request;
    }
    const notice = right(last!).events.find((e) => e.type === 'notice.completed');
    assert.ok(notice?.type === 'notice.completed');
    assert.deepEqual(refs(notice.notify), ['ref0', 'ref2']);
  });

  it('reminds only the signers whose turn it is', () => {
    const request = right(send(ordered(), NOW)).request;
    const afterOne = right(sign(request, 'ref0', NOW)).request;
    const { events } = right(remind(afterOne, later(NOW, 120), policy));
    assert.deepEqual(
      events.map((e) => (e.type === 'request.reminded' ? refs(e.notify) : [])),
      [['ref1']],
    );
  });

  it("counts the least time between notifications from the turn's start too: its signers were just told", () => {
    const request = right(send(ordered(), NOW)).request;
    const turnAt = later(NOW, 3600);
    const both = right(sign(right(sign(request, 'ref0', NOW)).request, 'ref1', turnAt)).request;
    assert.equal(turnStartedAt(both), turnAt);
    assert.deepEqual(left(remind(both, later(turnAt, 30), policy)), {
      _tag: 'RemindTooSoon',
      retryAfterSeconds: 30,
    });
    const { events } = right(remind(both, later(turnAt, 60), policy));
    assert.deepEqual(
      events.map((e) => (e.type === 'request.reminded' ? refs(e.notify) : [])),
      [['ref2']],
    );
    assert.equal(turnStartedAt(request), null, 'the first turn started with the send');
    assert.equal(turnStartedAt(right(send(ordered([null, null, null]), NOW)).request), null, 'no order');
  });

  it('without orders, everyone is notified and may sign at once, as before', () => {
    const { request, events } = right(send(ordered([null, null, null]), NOW));
    assert.deepEqual(
      events.map((e) => (e.type === 'request.sent' ? refs(e.notify) : [])),
      [['ref0', 'ref1', 'ref2']],
    );
    assert.equal(currentOrder(request), null);
    assert.ok(request.signers.every((s) => hasTurn(request, s)));
  });

  describe('at create', () => {
    const template = { contracts: [11] };
    it('keeps each signer’s order', () => {
      const created = right(
        createSignatureRequest(
          creationInput({
            body: body({
              ...template,
              signers: [
                { signer_id: 'a@example.com', order: 2 },
                { signer_id: 'b@example.com', order: 1 },
              ],
            }),
          }),
        ),
      );
      assert.deepEqual(
        created.request.signers.map((s) => s.order),
        [2, 1],
      );
    });

    it('refuses signers without an order when another has one, naming each', () => {
      const refused = left(
        createSignatureRequest(
          creationInput({
            body: body({
              ...template,
              signers: [
                { signer_id: 'a@example.com' },
                { signer_id: 'b@example.com', order: 1 },
                { signer_id: 'c' },
              ],
            }),
          }),
        ),
      );
      assert.deepEqual(
        refused.errors.map((e) => e.path),
        ['signers[0].order', 'signers[2].order'],
      );
    });
  });
});
