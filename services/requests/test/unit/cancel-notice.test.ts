import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { CancelRequestBody, decode, DomainEvent, SENDER_REF } from '@esign/contracts';
import { cancel } from '../../src/domain/signature-request.js';
import { envelopes } from '../../src/application/events.js';
import type { Ids } from '../../src/ports/ids.js';
import { draft, fresh, NOW, right, sent, signer } from '../support/builders.js';
import { caller, memoryLifecycle } from '../support/memory-lifecycle.js';

const signers = [
  signer({ signerRef: 'email', signerId: 'a@x.co', order: 1, state: 'signed' }),
  signer({
    signerRef: 'sms',
    signerId: '2025550143',
    order: 1,
    contact: { email: null, mobileNumber: '2025550143' },
    sendTo: { email: false, sms: true },
  }),
  // Embedded signing: never sent a message, so never told of the cancel either.
  signer({ signerRef: 'none', signerId: 'b@x.co', order: 1, sendTo: { email: false, sms: false } }),
  // A later turn: never told of the Request.
  signer({ signerRef: 'later', signerId: 'c@x.co', order: 2 }),
];

describe('requests domain: a cancel with a reason, its signers told (ADR 3500)', () => {
  it('keeps the reason in request.cancelled, and tells nobody unless asked', () => {
    const { events } = right(cancel(sent({ signers }), NOW, { reason: 'Wrong price' }));
    assert.deepEqual(events, [{ type: 'request.cancelled', previous: 'sent', reason: 'Wrong price' }]);
  });

  it('tells the signers who were told of a sent Request, signed or not, and only them', () => {
    const { events } = right(cancel(sent({ signers }), NOW, { reason: 'Wrong price', notifySigners: true }));
    assert.deepEqual(
      events.map((e) => ({ ...e, ...('notify' in e && { notify: e.notify.map((s) => s.signerRef) }) })),
      [
        { type: 'request.cancelled', previous: 'sent', reason: 'Wrong price', signersNotified: true },
        { type: 'notice.cancelled', reason: 'Wrong price', notify: ['email', 'sms'] },
      ],
    );
  });

  it('tells nobody of a draft (nobody was told of it), and says none were', () => {
    const { events } = right(cancel(draft({ signers }), NOW, { notifySigners: true }));
    assert.deepEqual(events, [{ type: 'request.cancelled', previous: 'draft' }]);
  });

  it('tells nobody when no signer was reached by a message', () => {
    const quiet = signers.filter((s) => s.signerRef === 'none');
    const { events } = right(cancel(sent({ signers: quiet }), NOW, { notifySigners: true }));
    assert.deepEqual(events, [{ type: 'request.cancelled', previous: 'sent' }]);
  });
});

describe('requests use cases: the cancel notice as the notifier takes it (ADR 3500)', () => {
  it('reaches each signer by the channels they were invited by', async () => {
    const { cases, create, events } = await memoryLifecycle();
    const signers = [
      { signer_id: 'a@b.co', send_to: { email: true } },
      { signer_id: '2025550143', send_to: { mobile_number: true } },
    ];
    const view = await create({ signers });
    right(await cases.sendRequest({ caller, requestId: view.id })());
    const order = { reason: 'Superseded by v2', notifySigners: true };
    const done = fresh(right(await cases.cancelRequest({ caller, requestId: view.id, order })()));
    assert.equal(done.state, 'cancelled');

    const [cancelled, notice] = events(view.id).slice(-2);
    assert.ok(E.isRight(DomainEvent.decode(cancelled)) && E.isRight(DomainEvent.decode(notice)));
    assert.equal(cancelled!.type, 'request.cancelled');
    assert.deepEqual(cancelled!.data, {
      request_id: view.id,
      previous_state: 'sent',
      reason: 'Superseded by v2',
      signers_notified: true,
    });
    assert.equal(notice!.type, 'notice.cancelled');
    const data = notice!.data as {
      reason: string;
      signers: { signer_id: string; signer_ref: string; send_to: unknown }[];
    };
    assert.equal(data.reason, 'Superseded by v2');
    assert.deepEqual(
      data.signers.map((s) => [s.signer_id, s.send_to]),
      [
        ['a@b.co', { email: true, mobile_number: false }],
        ['2025550143', { email: false, mobile_number: true }],
      ],
    );
  });

  it('does not tell the creating user, who is told of a decline (ADR 2003): the sender cancelled', () => {
    const request = sent({ signers: [signer()], creator: { userId: 'u', email: 'me@x.co' } });
    const ids = { eventId: () => '00000000-0000-4000-9000-000000000001' } as Ids;
    const [notice] = envelopes(
      { ids, executionUrl: () => 'https://x/sign', requestPageUrl: (id) => `https://app/r/${id}` },
      request,
      right(cancel(request, NOW, { notifySigners: true })).events.filter(
        (e) => e.type === 'notice.cancelled',
      ),
    );
    const told = (notice!.data as { signers: { signer_ref: string }[] }).signers.map((s) => s.signer_ref);
    assert.deepEqual(told, ['ref0']);
    assert.ok(!told.includes(SENDER_REF));
  });
});

describe('contracts: the cancel body (ADR 3500)', () => {
  const problems = (input: unknown) => {
    const decoded = decode(CancelRequestBody)(input);
    return E.isLeft(decoded) ? decoded.left.map((p) => [p.path, p.message]) : decoded.right;
  };

  it('takes none, a reason trimmed with its line breaks, and notify_signers', () => {
    assert.deepEqual(problems({}), {});
    assert.deepEqual(problems({ reason: '  Wrong\r\nprice ', notify_signers: true }), {
      reason: 'Wrong\nprice',
      notify_signers: true,
    });
  });

  it('names the field it refuses', () => {
    assert.deepEqual(problems({ reason: '   ' }), [['reason', 'must not be blank']]);
    assert.deepEqual(problems({ reason: 'x'.repeat(1001) }), [['reason', 'must be at most 1000 characters']]);
    assert.deepEqual(problems({ reason: 'a\u0007b' }), [
      ['reason', 'must not hold control characters other than line breaks and tabs'],
    ]);
    const named = (input: unknown) => (problems(input) as string[][]).map(([path]) => path);
    assert.deepEqual(named({ notify_signers: 'yes' }), ['notify_signers']);
    assert.deepEqual(named({ notify: true }), ['notify']);
  });
});
