import assert from 'node:assert/strict';
import {
  canReassign,
  checkReassignEmail,
  checkReassignment,
  reassignBySigner,
} from '../../src/domain/signer-reassignment.js';
import type { SignatureRequest } from '../../src/domain/signature-request.js';
import { changeSettings } from '../../src/domain/request-settings.js';
import { draft, later, left, NOW, right, sent } from '../support/builders.js';

const AT = later(NOW, 60);

/** Alice (e-mail) and Bob (SMS), sent, reassigning allowed. */
const allowed = (overrides: Partial<SignatureRequest> = {}) => sent({ allowReassign: true, ...overrides });
const alice = (request: SignatureRequest) => request.signers[0]!;
const CAROL = { email: 'carol@example.com', note: undefined };

describe('requests domain: a signer asks someone else to sign in their place (ADR 3560)', () => {
  it('is offered only when the sender allowed it, on their turn, to a signer sent their link, without a code they keep', () => {
    assert.equal(canReassign(allowed(), alice(allowed())), true);
    assert.equal(canReassign(sent(), alice(sent())), false, 'not allowed by the sender (the default)');
    const withCheck = (authentication: 'access_code' | 'sms_otp' | 'email_otp') =>
      allowed({ signers: allowed().signers.map((s, i) => (i === 0 ? { ...s, authentication } : s)) });
    assert.equal(canReassign(withCheck('email_otp'), alice(withCheck('email_otp'))), true);
    assert.equal(canReassign(withCheck('access_code'), alice(withCheck('access_code'))), false);
    assert.equal(canReassign(withCheck('sms_otp'), alice(withCheck('sms_otp'))), false);
    const embedded = allowed({
      signers: allowed().signers.map((s, i) =>
        i === 0 ? { ...s, sendTo: { email: false, sms: false } } : s,
      ),
    });
    assert.equal(canReassign(embedded, alice(embedded)), false, 'an embedded signer');
    const later = allowed({ signers: allowed().signers.map((s, i) => ({ ...s, order: 2 - i })) });
    assert.equal(canReassign(later, alice(later)), false, 'not their turn yet');
    const signed = allowed({
      signers: allowed().signers.map((s, i) => (i === 0 ? { ...s, state: 'signed' as const } : s)),
    });
    assert.equal(canReassign(signed, alice(signed)), false);
  });

  it('takes an e-mail address, trimmed and in lower case, not theirs and not another signer’s', () => {
    const request = allowed();
    const problem = (raw: string) => left(checkReassignEmail(request, alice(request), raw))[0]!;
    assert.equal(
      right(checkReassignEmail(request, alice(request), '  Carol@Example.com ')),
      'carol@example.com',
    );
    assert.deepEqual(problem(' '), {
      target: { _tag: 'ReassignEmail' },
      message: 'enter the e-mail address of the person who should sign',
    });
    assert.equal(problem('carol').message, 'must be an e-mail address, like name@example.com');
    assert.equal(
      problem('ALICE@example.com').message,
      'is your own address: give the address of the person who should sign',
    );
    const withBobsEmail = allowed({
      signers: allowed().signers.map((s, i) =>
        i === 1 ? { ...s, contact: { ...s.contact, email: 'bob@example.com' } } : s,
      ),
    });
    assert.equal(
      left(checkReassignEmail(withBobsEmail, alice(withBobsEmail), 'bob@example.com'))[0]!.message,
      'is already a signer of this request',
    );
  });

  it('puts them in the place as a replacement does, invites them, and tells the signer nothing', () => {
    const request = allowed();
    const {
      request: after,
      events,
      siteSigners,
    } = right(reassignBySigner(request, alice(request), CAROL, undefined, AT));
    const carol = after.signers[0]!;
    assert.deepEqual(
      [carol.signerId, carol.signerRef, carol.contact, carol.sendTo, carol.link.version],
      [
        'carol@example.com',
        'ref0',
        { email: 'carol@example.com', mobileNumber: null },
        { email: true, sms: false },
        1,
      ],
    );
    assert.deepEqual(siteSigners, [
      { siteId: 7, signerId: 'carol@example.com', email: 'carol@example.com', mobileNumber: null },
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['request.signer_updated', 'request.reminded'],
      'no notice to the signer who asked',
    );
    const updated = events[0] as { by: string; previousNotified?: true };
    assert.equal(updated.by, 'alice@example.com', 'the audit trail names the signer as who asked');
    assert.equal(updated.previousNotified, undefined);
    assert.deepEqual(
      (events[1] as { askedBy?: unknown }).askedBy,
      { who: 'alice@example.com', note: undefined },
      'the invitation says who asked',
    );
  });

  it('takes an optional note for them, plain text within 1000 characters, every problem at once (ADR 3630)', () => {
    const request = allowed();
    const check = (email: string, note: string | undefined) =>
      checkReassignment(request, alice(request), { email, note });
    assert.deepEqual(right(check('carol@example.com', '  Over to you.\r\nThanks ')), {
      email: 'carol@example.com',
      note: 'Over to you.\nThanks',
    });
    assert.deepEqual(right(check('carol@example.com', ' \n ')), {
      email: 'carol@example.com',
      note: undefined,
    });
    assert.deepEqual(right(check('carol@example.com', undefined)), {
      email: 'carol@example.com',
      note: undefined,
    });
    assert.deepEqual(right(check('carol@example.com', 'é'.repeat(1000))).note, 'é'.repeat(1000));
    assert.deepEqual(left(check('carol@example.com', 'x'.repeat(1001))), [
      { target: { _tag: 'ReassignNote' }, message: 'must be at most 1000 characters' },
    ]);
    assert.deepEqual(left(check('', 'a\u0007b')), [
      {
        target: { _tag: 'ReassignEmail' },
        message: 'enter the e-mail address of the person who should sign',
      },
      { target: { _tag: 'ReassignNote' }, message: 'must be plain text' },
    ]);
  });

  it('gives the new signer’s invitation who asked and their note, and the creating user the note too', () => {
    const owned = allowed({ creator: { userId: 'user-1', email: 'owner@acme.example' } });
    const asked = { email: 'carol@example.com', note: 'I am away: please sign for us.' };
    const { events } = right(reassignBySigner(owned, alice(owned), asked, undefined, AT));
    const invitation = events.find((e) => e.type === 'request.reminded') as { askedBy?: unknown };
    assert.deepEqual(invitation.askedBy, {
      who: 'alice@example.com',
      note: 'I am away: please sign for us.',
    });
    assert.deepEqual(events.at(-1), {
      type: 'notice.reassigned',
      from: 'alice@example.com',
      to: 'carol@example.com',
      note: 'I am away: please sign for us.',
    });
    const bob = owned.signers[1]!;
    const told = right(reassignBySigner(owned, bob, asked, undefined, AT));
    assert.deepEqual(
      (told.events.find((e) => e.type === 'request.reminded') as { askedBy?: { who: string } }).askedBy?.who,
      bob.contact.mobileNumber,
      'a signer sent their link by text is named by their number',
    );
  });

  it('tells the creating user who asked whom, when their address is known', () => {
    const owned = allowed({ creator: { userId: 'user-1', email: 'owner@acme.example' } });
    const { events } = right(reassignBySigner(owned, alice(owned), CAROL, undefined, AT));
    assert.deepEqual(events.at(-1), {
      type: 'notice.reassigned',
      from: 'alice@example.com',
      to: 'carol@example.com',
    });
    const unknown = allowed({ creator: { userId: 'user-1', email: null } });
    const quiet = right(reassignBySigner(unknown, alice(unknown), CAROL, undefined, AT));
    assert.ok(!quiet.events.some((e) => e.type === 'notice.reassigned'));
  });

  it('the sender turns it on or off on a draft or a sent Request, with its event; not once it has ended', () => {
    const on = right(changeSettings(sent(), { allowReassign: true }, AT, 3));
    assert.equal(on.request.allowReassign, true);
    assert.equal(canReassign(on.request, alice(on.request)), true, 'offered from then on');
    assert.deepEqual(on.events, [{ type: 'request.updated', changed: ['allow_reassign'] }]);
    const off = right(changeSettings(allowed(), { allowReassign: false }, AT, 3));
    assert.equal(canReassign(off.request, alice(off.request)), false);
    assert.deepEqual(off.events, [{ type: 'request.updated', changed: ['allow_reassign'] }]);
    assert.equal(right(changeSettings(draft(), { allowReassign: true }, AT, 3)).request.allowReassign, true);
    const same = right(changeSettings(sent(), { allowReassign: false }, AT, 3));
    assert.deepEqual(same.events, [], 'already off: nothing changed');
    assert.deepEqual(left(changeSettings(sent({ state: 'completed' }), { allowReassign: true }, AT, 3)), {
      _tag: 'StateConflict',
      action: 'update',
      state: 'completed',
    });
  });
});
