import assert from 'node:assert/strict';
import { LIMITS, type SignerEntry } from '@esign/contracts';
import { addDraftSigner, removeDraftSigner, type SignerToAdd } from '../../src/domain/draft-signers.js';
import { newChallenge } from '../../src/domain/signer-authentication.js';
import { draft, later, left, NOW, right, sent, signer } from '../support/builders.js';

const AT = later(NOW, 60);
const adding = (entry: SignerEntry, overrides: Partial<SignerToAdd> = {}): SignerToAdd => ({
  entry,
  stored: undefined,
  signerRef: 'ref9',
  challenge: null,
  ...overrides,
});

describe('requests domain: a draft’s signers added and removed (ADR 3280)', () => {
  it('adds a signer last, by the create’s rules: contact from the signer_id, then the Site’s record', () => {
    const t = right(
      addDraftSigner(
        draft(),
        adding(
          { signer_id: 'carol@example.com', send_to: { email: true }, locale: 'fr' },
          { stored: { email: 'old@example.com', mobileNumber: '15552345670' } },
        ),
        AT,
      ),
    );
    const added = t.request.signers.at(-1)!;
    assert.equal(t.request.signers.length, 3);
    assert.deepEqual(
      {
        id: added.signerId,
        ref: added.signerRef,
        contact: added.contact,
        sendTo: added.sendTo,
        locale: added.locale,
      },
      {
        id: 'carol@example.com',
        ref: 'ref9',
        // The signer_id is an address, which wins over the stored one; the number is kept.
        contact: { email: 'carol@example.com', mobileNumber: '15552345670' },
        sendTo: { email: true, sms: false },
        locale: 'fr',
      },
    );
    assert.equal(added.state, 'pending');
    assert.equal(t.request.updatedAt, AT);
    assert.deepEqual(t.events, [{ type: 'request.signer_added', signerRef: 'ref9' }]);
    assert.deepEqual(t.siteSigners, [
      { siteId: 7, signerId: 'carol@example.com', email: 'carol@example.com', mobileNumber: '15552345670' },
    ]);
    assert.deepEqual(t.challenges, []);
  });

  it('carries the added signer’s challenge to be stored with them', () => {
    const challenge = newChallenge('access_code', 'hash');
    const t = right(
      addDraftSigner(
        draft(),
        adding(
          { signer_id: 'dan', authentication: { method: 'access_code', access_code: '1234' } },
          { challenge },
        ),
        AT,
      ),
    );
    assert.equal(t.request.signers.at(-1)!.authentication, 'access_code');
    assert.deepEqual(t.challenges, [{ signerRef: 'ref9', challenge }]);
  });

  it('refuses, at the body’s fields, a signer_id already on it, a mobile id outside the US, and an OTP with no address', () => {
    assert.deepEqual(left(addDraftSigner(draft(), adding({ signer_id: 'bob' }), AT)), {
      _tag: 'InvalidRequest',
      errors: [{ path: 'signer_id', message: '"bob" is already a signer of this Request' }],
    });
    const notUs = left(addDraftSigner(draft(), adding({ signer_id: '4165550123' }), AT));
    assert.equal(notUs._tag, 'InvalidRequest');
    assert.deepEqual(notUs._tag === 'InvalidRequest' && notUs.errors.map((e) => e.path), ['signer_id']);
    const otp = left(
      addDraftSigner(draft(), adding({ signer_id: 'erin', authentication: { method: 'email_otp' } }), AT),
    );
    assert.deepEqual(otp._tag === 'InvalidRequest' && otp.errors.map((e) => e.path), ['signer.email']);
    const code = left(
      addDraftSigner(draft(), adding({ signer_id: 'erin', authentication: { method: 'access_code' } }), AT),
    );
    assert.deepEqual(code._tag === 'InvalidRequest' && code.errors.map((e) => e.path), [
      'authentication.access_code',
    ]);
  });

  it('an order goes with the others’: required when they have one, refused when they have none', () => {
    const ordered = draft({
      signers: [signer({ order: 1 }), signer({ signerId: 'bob', signerRef: 'ref1', order: 2 })],
    });
    const missing = left(addDraftSigner(ordered, adding({ signer_id: 'carol' }), AT));
    assert.deepEqual(missing._tag === 'InvalidRequest' && missing.errors.map((e) => e.path), ['order']);
    assert.equal(
      right(addDraftSigner(ordered, adding({ signer_id: 'carol', order: 2 }), AT)).request.signers[2]!.order,
      2,
    );
    const extra = left(addDraftSigner(draft(), adding({ signer_id: 'carol', order: 1 }), AT));
    assert.deepEqual(extra._tag === 'InvalidRequest' && extra.errors.map((e) => e.path), ['order']);
  });

  it(`a Request has at most ${LIMITS.signers} signers`, () => {
    const full = draft({
      signers: Array.from({ length: LIMITS.signers }, (_, i) =>
        signer({ signerId: `s${i}`, signerRef: `r${i}` }),
      ),
      fields: [],
    });
    const refused = left(addDraftSigner(full, adding({ signer_id: 'one-more' }), AT));
    assert.deepEqual(refused._tag === 'InvalidRequest' && refused.errors.map((e) => e.path), ['signer_id']);
  });

  it('only a draft, and not once its expiry has passed', () => {
    assert.deepEqual(left(addDraftSigner(sent(), adding({ signer_id: 'carol' }), AT)), {
      _tag: 'StateConflict',
      action: 'add_signer',
      state: 'sent',
    });
    assert.deepEqual(left(removeDraftSigner(sent(), 'bob', AT)), {
      _tag: 'StateConflict',
      action: 'remove_signer',
      state: 'sent',
    });
    const expired = draft({ expiresAt: later(NOW, 30) });
    assert.equal(left(addDraftSigner(expired, adding({ signer_id: 'carol' }), AT))._tag, 'RequestExpired');
    assert.equal(left(removeDraftSigner(expired, 'bob', AT))._tag, 'RequestExpired');
  });

  it('removes a signer; the fields that were theirs are left unassigned, and the event names them', () => {
    const t = right(removeDraftSigner(draft(), 'bob', AT));
    assert.deepEqual(
      t.request.signers.map((s) => s.signerId),
      ['alice@example.com'],
    );
    assert.deepEqual(t.request.fields, [
      { name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' },
      { name: 'signature', defaultValue: null, assignedTo: null },
    ]);
    assert.deepEqual(t.events, [
      {
        type: 'request.signer_removed',
        signer: { signerId: 'bob', signerRef: 'ref1' },
        unassignedFields: ['signature'],
      },
    ]);
    assert.equal(t.request.updatedAt, AT);
  });

  it('a signer with no fields leaves the very fields array, so the write leaves them alone', () => {
    const before = draft({
      fields: [{ name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' }],
    });
    const t = right(removeDraftSigner(before, 'bob', AT));
    assert.equal(t.request.fields, before.fields);
    assert.deepEqual(t.events, [
      {
        type: 'request.signer_removed',
        signer: { signerId: 'bob', signerRef: 'ref1' },
        unassignedFields: [],
      },
    ]);
  });

  it('keeps the only signer, and answers an unknown one as missing', () => {
    const one = draft({ signers: [signer()], fields: [] });
    assert.deepEqual(left(removeDraftSigner(one, 'alice@example.com', AT)), { _tag: 'LastSigner' });
    assert.deepEqual(left(removeDraftSigner(draft(), 'nobody', AT)), {
      _tag: 'UnknownSigner',
      signerRef: 'nobody',
    });
  });
});
