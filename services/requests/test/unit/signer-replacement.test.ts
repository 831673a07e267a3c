import assert from 'node:assert/strict';
import { executionAccess } from '../../src/domain/execution-access.js';
import { replaceSigner, type SignerReplacement } from '../../src/domain/signer-replacement.js';
import { reissueLink, type SignatureRequest } from '../../src/domain/signature-request.js';
import { draft, later, left, NOW, right, sent, signer } from '../support/builders.js';

const AT = later(NOW, 3600);
const BY = 'sender@acme.example';

const replace = (
  request: SignatureRequest,
  signerId: string,
  by: SignerReplacement['by'],
  more: Partial<Omit<SignerReplacement, 'signerId' | 'by'>> = {},
) =>
  replaceSigner(
    request,
    { signerId, by, stored: undefined, accessCodeHash: null, notify: true, replacedBy: BY, ...more },
    AT,
  );

/** Alice (e-mail, opened her link, its delivery reported) and Bob (SMS), sent at NOW. */
const request = (overrides: Partial<SignatureRequest> = {}) =>
  sent({
    signers: [
      signer({
        viewedAt: NOW,
        locale: 'fr',
        delivery: { email: { outcome: 'delivered', at: NOW, eventId: 'e1', error: null }, sms: null },
      }),
      signer({
        signerId: 'bob',
        signerRef: 'ref1',
        contact: { email: null, mobileNumber: '15552345678' },
        sendTo: { email: false, sms: true },
      }),
    ],
    ...overrides,
  });

describe('requests domain: someone else signs in a signer’s place (ADR 3550)', () => {
  it('puts the new signer in the place: a new link, nothing of the one before, their fields, and an invitation', () => {
    const {
      request: after,
      events,
      siteSigners,
    } = right(replace(request(), 'alice@example.com', { signer_id: 'carol@example.com' }));
    const carol = after.signers[0]!;
    assert.deepEqual(
      {
        id: carol.signerId,
        ref: carol.signerRef,
        contact: carol.contact,
        sendTo: carol.sendTo,
        locale: carol.locale,
        viewedAt: carol.viewedAt,
        delivery: carol.delivery,
        link: carol.link,
      },
      {
        id: 'carol@example.com',
        ref: 'ref0',
        // Her signer_id is an address: her contact, as a create reads it.
        contact: { email: 'carol@example.com', mobileNumber: null },
        sendTo: { email: true, sms: false },
        locale: 'fr',
        viewedAt: null,
        delivery: { email: null, sms: null },
        link: { version: 1, issuedAt: AT },
      },
    );
    assert.deepEqual(after.signers[1], request().signers[1], 'Bob stays as he was');
    assert.deepEqual(
      after.fields.map((f) => [f.name, f.assignedTo]),
      [
        ['full_name', 'carol@example.com'],
        ['signature', 'bob'],
      ],
    );
    assert.deepEqual(siteSigners, [
      { siteId: 7, signerId: 'carol@example.com', email: 'carol@example.com', mobileNumber: null },
    ]);
    assert.deepEqual(events, [
      {
        type: 'request.signer_updated',
        signerRef: 'ref0',
        linkReplaced: true,
        previous: {
          signerId: 'alice@example.com',
          contact: { email: 'alice@example.com', mobileNumber: null },
          sendTo: { email: true, sms: false },
        },
        by: BY,
        changed: ['signer_id', 'email'],
        previousNotified: true,
      },
      { type: 'request.reminded', notify: [carol], readdressed: true },
      // Alice, as she was invited, hears she need not sign.
      { type: 'notice.replaced', replaced: request().signers[0] },
    ]);
  });

  it('tells the replaced signer only when they had been told of the Request by a channel', () => {
    const embedded = request({
      signers: request().signers.map((s, i) =>
        i === 0 ? { ...s, sendTo: { email: false, sms: false } } : s,
      ),
    });
    const { events } = right(replace(embedded, 'alice@example.com', { signer_id: 'carol@example.com' }));
    assert.deepEqual(
      events.map((e) => e.type),
      ['request.signer_updated'],
      'an embedded signer was sent nothing, and is sent nothing now',
    );
  });

  it('says the note given to the new signer in their invitation, in place of the Request’s message', () => {
    const by = { signer_id: 'carol@example.com', signer: { email: 'carol@example.com' } };
    const noted = right(
      replace(request(), 'alice@example.com', by, { message: 'Alice is away: please sign for her.' }),
    );
    assert.deepEqual(
      noted.events.find((e) => e.type === 'request.reminded'),
      {
        type: 'request.reminded',
        notify: [noted.request.signers[0]],
        readdressed: true,
        message: 'Alice is away: please sign for her.',
      },
    );
    const plain = right(replace(request(), 'alice@example.com', by));
    assert.ok(!('message' in plain.events.find((e) => e.type === 'request.reminded')!), 'none unless given');
  });

  it('tells the replaced signer’s links that they were replaced, and the new signer’s older links only that they were', () => {
    const DAY = 86_400_000;
    const link = (version: number) => ({ signerRef: 'ref0', version });
    const { request: after } = right(
      replace(request(), 'alice@example.com', { signer_id: 'carol@example.com' }),
    );
    assert.equal(after.signers[0]!.placedAtVersion, 1);
    assert.deepEqual(left(executionAccess(after, link(0), AT, DAY)), { _tag: 'SignerReplaced' });
    assert.equal(right(executionAccess(after, link(1), AT, DAY)).signerId, 'carol@example.com');
    // Carol's link reissued: her older one was replaced by a newer one of hers.
    const again = right(reissueLink(after, 'carol@example.com', AT, false)).request;
    assert.deepEqual(left(executionAccess(again, link(1), AT, DAY)), { _tag: 'Replaced' });
    assert.deepEqual(left(executionAccess(again, link(0), AT, DAY)), { _tag: 'SignerReplaced' });
  });

  it('takes the details and channels given, the Site’s record after them, and tells nobody when asked not to', () => {
    const stored = { email: 'dan@example.org', mobileNumber: '15553334444' };
    const { request: after, events } = right(
      replace(
        request(),
        'bob',
        { signer_id: 'dan', signer: { mobile_number: '15559990000' }, send_to: { email: true } },
        { stored, notify: false },
      ),
    );
    const dan = after.signers[1]!;
    assert.deepEqual(
      [dan.contact, dan.sendTo],
      [
        { email: 'dan@example.org', mobileNumber: '15559990000' },
        { email: true, sms: true },
      ],
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['request.signer_updated'],
    );
    assert.deepEqual((events[0] as { changed: readonly string[] }).changed, [
      'signer_id',
      'email',
      'mobile_number',
      'send_to',
    ]);
  });

  it('invites a later turn’s signer at their turn, not now, and tells the one replaced nothing', () => {
    const ordered = request({
      signers: request().signers.map((s, i) => ({ ...s, order: i + 1 })),
    });
    const { events } = right(replace(ordered, 'bob', { signer_id: 'erin@example.com' }));
    assert.deepEqual(
      events.map((e) => e.type),
      ['request.signer_updated'],
    );
  });

  it('starts the place’s check again for the new signer, the access code kept', () => {
    const checked = request({
      signers: request().signers.map((s, i) =>
        i === 0 ? { ...s, authentication: 'access_code' as const } : s,
      ),
    });
    const { challenges } = right(
      replace(
        checked,
        'alice@example.com',
        { signer_id: 'carol@example.com' },
        { accessCodeHash: 'scrypt$x' },
      ),
    );
    assert.deepEqual(challenges, [
      {
        signerRef: 'ref0',
        challenge: {
          method: 'access_code',
          accessCodeHash: 'scrypt$x',
          failedAttempts: 0,
          lockedUntil: null,
          otpHash: null,
          otpExpiresAt: null,
          smsSentAt: [],
          passedAt: null,
        },
      },
    ]);
    assert.deepEqual(right(replace(request(), 'bob', { signer_id: 'dan' })).challenges, [], 'no check, none');
  });

  it('refuses by field what cannot sign there, and by state what is not a sent Request’s pending signer', () => {
    const paths = (by: SignerReplacement['by'], signerId = 'alice@example.com', r = request()) =>
      left(replace(r, signerId, by));
    assert.deepEqual(paths({ signer_id: 'bob' }), {
      _tag: 'InvalidRequest',
      errors: [{ path: 'signer_id', message: '"bob" is already a signer of this Request' }],
    });
    assert.match(
      JSON.stringify(paths({ signer_id: 'alice@example.com' })),
      /is the signer being replaced: to change how they are reached, correct their contact/,
    );
    const texted = request({
      signers: request().signers.map((s, i) => (i === 0 ? { ...s, authentication: 'sms_otp' as const } : s)),
    });
    assert.deepEqual(paths({ signer_id: 'carol@example.com' }, 'alice@example.com', texted), {
      _tag: 'InvalidRequest',
      errors: [
        {
          path: 'signer.mobile_number',
          message: 'required: this signer’s check before signing texts a code to this number',
        },
      ],
    });
    assert.equal(paths({ signer_id: 'carol' }, 'nobody')._tag, 'UnknownSigner');
    assert.deepEqual(left(replace(draft(), 'bob', { signer_id: 'dan' })), {
      _tag: 'StateConflict',
      action: 'replace_signer',
      state: 'draft',
    });
    const signed = request({
      signers: request().signers.map((s, i) =>
        i === 1 ? { ...s, state: 'signed' as const, signedAt: NOW } : s,
      ),
    });
    assert.deepEqual(left(replace(signed, 'bob', { signer_id: 'dan' })), {
      _tag: 'SignerNotPending',
      signerRef: 'ref1',
      state: 'signed',
    });
    const expired = request({ expiresAt: later(NOW, 60) });
    assert.equal(left(replace(expired, 'bob', { signer_id: 'dan' }))._tag, 'RequestExpired');
  });
});
