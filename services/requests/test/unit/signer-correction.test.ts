import assert from 'node:assert/strict';
import type { SignerUpdatePart } from '@esign/contracts';
import { correctSigner, type SignerCorrection } from '../../src/domain/signer-correction.js';
import type { Delivery, RequestSigner, SignatureRequest } from '../../src/domain/signature-request.js';
import { draft, later, left, NOW, right, sent, signer } from '../support/builders.js';

const AT = later(NOW, 3600);
const bounced: Delivery = { outcome: 'failed', at: NOW, eventId: 'e1', error: '550 no such user' };
const delivered: Delivery = { outcome: 'delivered', at: NOW, eventId: 'e1', error: null };
const BY = 'sender@acme.example';

const correct = (request: SignatureRequest, signerId: string, correction: SignerCorrection, notify = true) =>
  correctSigner(request, { signerId, correction, notify, by: BY }, AT);

/** Alice's and Bob's details as sent, which each correction's event names. */
const ALICE = {
  contact: { email: 'alice@example.com', mobileNumber: null },
  sendTo: { email: true, sms: false },
};
const BOB = { contact: { email: null, mobileNumber: '15552345678' }, sendTo: { email: false, sms: true } };
const updated = (
  signerRef: string,
  linkReplaced: boolean,
  previous: Pick<RequestSigner, 'contact' | 'sendTo'>,
  changed: readonly SignerUpdatePart[],
) => ({
  type: 'request.signer_updated',
  signerRef,
  linkReplaced,
  previous,
  by: BY,
  changed,
});

/** Alice (e-mail, her message bounced) and Bob (SMS, delivered), sent at NOW. */
const request = () =>
  sent({
    signers: [
      signer({ delivery: { email: bounced, sms: null } }),
      signer({
        signerId: 'bob',
        signerRef: 'ref1',
        contact: { email: null, mobileNumber: '15552345678' },
        sendTo: { email: false, sms: true },
        delivery: { email: null, sms: delivered },
      }),
    ],
  });

describe('requests domain: correcting a signer of a sent Request (ADR 3140)', () => {
  it('a new address: the Request keeps it, a new link, the old delivery cleared, and the signer told', () => {
    const before = request();
    const { request: after, events } = right(
      correct(before, 'alice@example.com', { email: 'alice@example.org' }),
    );
    const alice = after.signers[0]!;
    assert.deepEqual(alice.contact, { email: 'alice@example.org', mobileNumber: null });
    assert.deepEqual(alice.link, { version: 1, issuedAt: AT }, 'every older link stops opening');
    assert.deepEqual(alice.delivery, { email: null, sms: null }, 'the bounce was the old address');
    assert.equal(alice.signerId, 'alice@example.com', 'the client still names them as before');
    assert.equal(after.updatedAt, AT);
    assert.equal(after.signers[1], before.signers[1], 'the other signer is untouched');
    assert.deepEqual(events, [
      updated('ref0', true, ALICE, ['email']),
      // ADR 3420: the new address hears of the Request for the first time.
      { type: 'request.reminded', notify: [alice], readdressed: true },
    ]);
    assert.equal(after.remindCount, 0, 'not counted as a reminder');
    assert.equal(after.lastRemindedAt, null);
  });

  it('a new mobile number clears only the SMS status; notify false tells nobody', () => {
    const { request: after, events } = right(
      correct(request(), 'bob', { mobileNumber: '15559876543' }, false),
    );
    const bob = after.signers[1]!;
    assert.deepEqual(bob.contact, { email: null, mobileNumber: '15559876543' });
    assert.deepEqual(bob.delivery, { email: null, sms: null });
    assert.equal(bob.link.version, 1);
    assert.deepEqual(events, [updated('ref1', true, BOB, ['mobile_number'])]);
  });

  it('channels alone: the link stays, the statuses stay, and the signer is told on the new set', () => {
    const { request: after, events } = right(
      correct(request(), 'bob', { email: 'bob@example.com', sendTo: { email: true } }),
    );
    const bob = after.signers[1]!;
    assert.deepEqual(bob.sendTo, { email: true, sms: true });
    assert.equal(bob.link.version, 1, 'an address was added: a new link all the same');
    const onlyChannels = right(correct(request(), 'bob', { sendTo: { sms: false, email: false } }));
    const quiet = onlyChannels.request.signers[1]!;
    assert.deepEqual(quiet.link, { version: 0, issuedAt: null }, 'no address changed: the same link');
    assert.deepEqual(quiet.delivery, request().signers[1]!.delivery);
    assert.deepEqual(
      onlyChannels.events,
      [updated('ref1', false, BOB, ['send_to'])],
      'no channel left to tell them on',
    );
    assert.deepEqual(events, [
      updated('ref1', true, BOB, ['email', 'send_to']),
      { type: 'request.reminded', notify: [bob], readdressed: true },
    ]);
    // Channels changed on the same details: the same link, so a reminder as any other.
    const sameLink = right(correct(request(), 'alice@example.com', { sendTo: { sms: true } }));
    assert.deepEqual(sameLink.events[1], { type: 'request.reminded', notify: [sameLink.request.signers[0]] });
  });

  it('the same details change nothing and tell nobody', () => {
    const before = request();
    const same = correct(before, 'alice@example.com', {
      email: 'alice@example.com',
      sendTo: { email: true, sms: false },
    });
    assert.deepEqual(right(same), { request: before, events: [] });
  });

  it("a later turn's signer is corrected now and told at their turn", () => {
    const ordered = sent({
      signers: [signer({ order: 1 }), signer({ signerId: 'b@x.co', signerRef: 'ref1', order: 2 })],
    });
    const { request: after, events } = right(correct(ordered, 'b@x.co', { email: 'b@y.co' }));
    assert.equal(after.signers[1]!.contact.email, 'b@y.co');
    const { contact, sendTo } = ordered.signers[1]!;
    assert.deepEqual(events, [updated('ref1', true, { contact, sendTo }, ['email'])]);
  });

  it('refuses a draft’s new address, a finished Request, an expired one, an unknown signer and one who acted', () => {
    const fix = { email: 'x@y.co' };
    assert.deepEqual(left(correct(draft(), 'alice@example.com', fix)), {
      _tag: 'StateConflict',
      action: 'update_signer',
      state: 'draft',
    });
    const completed = { ...request(), state: 'completed' as const };
    assert.equal(left(correct(completed, 'alice@example.com', fix))._tag, 'StateConflict');
    assert.deepEqual(left(correct(sent({ expiresAt: AT }), 'alice@example.com', fix)), {
      _tag: 'RequestExpired',
      expiresAt: AT,
    });
    assert.deepEqual(left(correct(request(), 'nobody', fix)), {
      _tag: 'UnknownSigner',
      signerRef: 'nobody',
    });
    const signed = sent({ signers: [signer({ state: 'signed', signedAt: NOW })] });
    assert.deepEqual(left(correct(signed, 'alice@example.com', fix)), {
      _tag: 'SignerNotPending',
      signerRef: 'ref0',
      state: 'signed',
    });
  });

  it('changes a draft’s channels only, sending nothing; the same channels change nothing (ADR 3200)', () => {
    const before = draft();
    const { request: after, events } = right(
      correct(before, 'alice@example.com', { sendTo: { email: false, sms: true } }),
    );
    assert.deepEqual(after.signers[0]!.sendTo, { email: false, sms: true });
    assert.equal(after.signers[0]!.link, before.signers[0]!.link, 'no new link: none is live yet');
    assert.equal(after.state, 'draft');
    const { contact, sendTo } = before.signers[0]!;
    assert.deepEqual(
      events,
      [updated('ref0', false, { contact, sendTo }, ['send_to'])],
      'told, but nothing sent',
    );
    assert.deepEqual(right(correct(before, 'alice@example.com', { sendTo })), {
      request: before,
      events: [],
    });
    assert.deepEqual(left(correct(before, 'nobody', { sendTo: { sms: true } })), {
      _tag: 'UnknownSigner',
      signerRef: 'nobody',
    });
    assert.deepEqual(
      left(correct(draft({ expiresAt: AT }), 'alice@example.com', { sendTo: { sms: true } })),
      {
        _tag: 'RequestExpired',
        expiresAt: AT,
      },
    );
  });
});
