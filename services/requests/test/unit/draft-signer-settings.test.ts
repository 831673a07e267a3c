import assert from 'node:assert/strict';
import { correctSigner, type SignerCorrection } from '../../src/domain/signer-correction.js';
import { newChallenge } from '../../src/domain/signer-authentication.js';
import { send, type SignatureRequest } from '../../src/domain/signature-request.js';
import { draft, later, left, NOW, right, sent, signer } from '../support/builders.js';

const AT = later(NOW, 60);
const change = (request: SignatureRequest, signerId: string, correction: SignerCorrection) =>
  correctSigner(request, { signerId, correction, notify: true, by: 'sender@acme.example' }, AT);
const code = (accessCode: string) => ({
  entry: { method: 'access_code' as const, access_code: accessCode },
  challenge: newChallenge('access_code', `hash-of-${accessCode}`),
});

describe('requests domain: a draft’s signer’s order, authentication and language (ADR 3290)', () => {
  it('replaces each, names what changed, and carries the new check to be stored', () => {
    const t = right(change(draft(), 'bob', { order: 2, locale: 'de', authentication: code('2468') }));
    const bob = t.request.signers[1]!;
    assert.deepEqual([bob.order, bob.locale, bob.authentication], [2, 'de', 'access_code']);
    assert.deepEqual(t.events, [
      {
        type: 'request.signer_updated',
        signerRef: 'ref1',
        linkReplaced: false,
        previous: { contact: bob.contact, sendTo: bob.sendTo },
        by: 'sender@acme.example',
        changed: ['order', 'authentication', 'locale'],
      },
    ]);
    assert.deepEqual(t.challenges, [{ signerRef: 'ref1', challenge: code('2468').challenge }]);
    assert.equal(t.request.updatedAt, AT);
  });

  it('null removes each; the same values change nothing, but a new access code always does', () => {
    const checked = draft({
      signers: [signer({ order: 1, locale: 'fr', authentication: 'email_otp' })],
    });
    const cleared = right(
      change(checked, 'alice@example.com', { order: null, locale: null, authentication: null }),
    );
    const alice = cleared.request.signers[0]!;
    assert.deepEqual([alice.order, alice.locale, alice.authentication], [null, null, null]);
    assert.deepEqual(cleared.challenges, [{ signerRef: 'ref0', challenge: null }], 'their check is removed');
    const same = change(checked, 'alice@example.com', {
      order: 1,
      locale: 'fr',
      authentication: { entry: { method: 'email_otp' }, challenge: newChallenge('email_otp', null) },
    });
    assert.deepEqual(right(same), { request: checked, events: [] });
    const withCode = draft({ signers: [signer({ authentication: 'access_code' })] });
    const again = right(change(withCode, 'alice@example.com', { authentication: code('1357') }));
    assert.deepEqual(
      again.events.map((e) => e.type === 'request.signer_updated' && e.changed),
      [['authentication']],
      'only its hash is kept, so a code given is a new one',
    );
  });

  it('checks a new authentication as at create, naming the Site’s missing detail at authentication.method', () => {
    const noEmail = left(
      change(draft(), 'bob', {
        authentication: { entry: { method: 'email_otp' }, challenge: newChallenge('email_otp', null) },
      }),
    );
    assert.equal(noEmail._tag, 'InvalidRequest');
    assert.deepEqual(noEmail._tag === 'InvalidRequest' && noEmail.errors.map((e) => e.path), [
      'authentication.method',
    ]);
    assert.match(
      noEmail._tag === 'InvalidRequest' ? noEmail.errors[0]!.message : '',
      /PUT \/v1\.1\/sites\/:id\/signers/,
    );
    const noCode = left(
      change(draft(), 'bob', {
        authentication: { entry: { method: 'access_code' }, challenge: newChallenge('email_otp', null) },
      }),
    );
    assert.deepEqual(noCode._tag === 'InvalidRequest' && noCode.errors.map((e) => e.path), [
      'authentication.access_code',
    ]);
  });

  it('a sent Request’s signer keeps them: 409', () => {
    for (const correction of [{ order: 1 }, { locale: 'de' }, { authentication: null }] as SignerCorrection[])
      assert.deepEqual(left(change(sent(), 'bob', correction)), {
        _tag: 'StateConflict',
        action: 'update_signer_settings',
        state: 'sent',
      });
  });

  it('a draft may be part ordered on its way; the send refuses it, naming the signers without one', () => {
    const halfway = right(change(draft(), 'alice@example.com', { order: 1 })).request;
    assert.deepEqual(left(send(halfway, AT)), {
      _tag: 'SendPreconditionsFailed',
      missing: [{ _tag: 'SignersWithoutOrder', signers: [{ index: 1, signerId: 'bob' }] }],
    });
    const ordered = right(change(halfway, 'bob', { order: 2 })).request;
    assert.equal(right(send(ordered, AT)).request.state, 'sent');
  });
});
