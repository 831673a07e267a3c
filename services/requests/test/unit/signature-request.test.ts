import assert from 'node:assert/strict';
import {
  cancel,
  decline,
  executionAccess,
  linkExpiresAt,
  reissueLink,
  expire,
  remind,
  send,
  sign,
  type RequestState,
} from '../../src/domain/signature-request.js';
import { draft, later, left, NOW, right, sent, signer } from '../support/builders.js';

const ALL_STATES: RequestState[] = ['draft', 'sent', 'completed', 'cancelled', 'expired', 'declined'];
const policy = { minIntervalSeconds: 3600, maxReminders: 3 };
const DAY = 86_400_000;

describe('requests domain: transitions', () => {
  describe('send', () => {
    it('turns a complete draft into sent and asks to notify every signer', () => {
      const { request, events } = right(send(draft(), later(NOW, 60)));
      assert.equal(request.state, 'sent');
      assert.equal(request.sentAt, later(NOW, 60));
      assert.deepEqual(events, [{ type: 'request.sent', notify: request.signers }]);
    });

    it('names every unassigned field, and missing contracts and signers', () => {
      const incomplete = draft({
        contracts: [],
        signers: [],
        fields: [
          { name: 'a', defaultValue: null, assignedTo: 'x' },
          { name: 'b', defaultValue: 'v', assignedTo: null },
          { name: 'c', defaultValue: null, assignedTo: null },
        ],
      });
      assert.deepEqual(left(send(incomplete, NOW)), {
        _tag: 'SendPreconditionsFailed',
        missing: [
          { _tag: 'NoContracts' },
          { _tag: 'NoSigners' },
          {
            _tag: 'UnassignedFields',
            fields: [
              { index: 1, name: 'b' },
              { index: 2, name: 'c' },
            ],
          },
        ],
      });
    });

    it('refuses anything but a draft', () => {
      for (const state of ALL_STATES.filter((s) => s !== 'draft')) {
        assert.deepEqual(left(send(draft({ state }), NOW)), { _tag: 'StateConflict', action: 'send', state });
      }
    });

    it('refuses a draft past its expiry', () => {
      assert.deepEqual(left(send(draft({ expiresAt: NOW }), NOW)), {
        _tag: 'RequestExpired',
        expiresAt: NOW,
      });
    });
  });

  describe('cancel', () => {
    it('cancels a draft or a sent Request', () => {
      for (const request of [draft(), sent()]) {
        const result = right(cancel(request, NOW));
        assert.equal(result.request.state, 'cancelled');
        assert.equal(result.request.cancelledAt, NOW);
        assert.deepEqual(result.events, [{ type: 'request.cancelled', previous: request.state }]);
      }
    });

    it('refuses a final state', () => {
      for (const state of ['completed', 'cancelled', 'expired', 'declined'] as const) {
        assert.deepEqual(left(cancel(draft({ state }), NOW)), {
          _tag: 'StateConflict',
          action: 'cancel',
          state,
        });
      }
    });
  });

  describe('expire', () => {
    it('expires a draft or sent Request once expires_at has passed, not before', () => {
      const request = sent({ expiresAt: later(NOW, 10) });
      assert.equal(left(expire(request, NOW))._tag, 'StateConflict');
      const result = right(expire(request, later(NOW, 10)));
      assert.equal(result.request.state, 'expired');
      assert.deepEqual(result.events, [{ type: 'request.expired', previous: 'sent' }]);
      assert.equal(right(expire(draft({ expiresAt: NOW }), NOW)).request.state, 'expired');
    });

    it('leaves a Request without expiry and a final one alone', () => {
      assert.equal(left(expire(sent(), later(NOW, 1e6)))._tag, 'StateConflict');
      assert.equal(left(expire(sent({ state: 'completed', expiresAt: NOW }), NOW))._tag, 'StateConflict');
    });
  });

  describe('remind', () => {
    it('re-notifies only pending signers that can be reached, once the interval has passed since the send', () => {
      const request = sent({
        signers: [
          signer(),
          signer({ signerId: 'done', signerRef: 'r1', state: 'signed' }),
          signer({ signerId: 'mute', signerRef: 'r2', sendTo: { email: false, sms: false } }),
          signer({ signerId: 'nomail', signerRef: 'r3', contact: { email: null, mobileNumber: null } }),
        ],
      });
      assert.deepEqual(left(remind(request, later(NOW, 3599), policy)), {
        _tag: 'RemindTooSoon',
        retryAfterSeconds: 1,
      });
      const result = right(remind(request, later(NOW, 3600), policy));
      assert.deepEqual(result.events, [{ type: 'request.reminded', notify: [request.signers[0]] }]);
      assert.equal(result.request.remindCount, 1);
      assert.equal(result.request.lastRemindedAt, later(NOW, 3600));
    });

    it('counts the interval from the last reminder and stops at the limit', () => {
      const reminded = sent({ lastRemindedAt: later(NOW, 7200), remindCount: 1 });
      assert.deepEqual(left(remind(reminded, later(NOW, 7200 + 60), policy)), {
        _tag: 'RemindTooSoon',
        retryAfterSeconds: 3540,
      });
      assert.deepEqual(left(remind(sent({ remindCount: 3 }), later(NOW, 1e6), policy)), {
        _tag: 'RemindLimitReached',
        limit: 3,
      });
    });

    it('refuses when nobody is left to tell, and outside sent', () => {
      const request = sent({ signers: [signer({ state: 'signed' })] });
      assert.deepEqual(left(remind(request, later(NOW, 1e5), policy)), { _tag: 'NothingToRemind' });
      assert.deepEqual(left(remind(draft(), NOW, policy)), {
        _tag: 'StateConflict',
        action: 'remind',
        state: 'draft',
      });
    });
  });

  describe('sign and decline', () => {
    it('completes the Request when the last signer signs', () => {
      const first = right(sign(sent(), 'ref0', NOW));
      assert.equal(first.request.state, 'sent');
      assert.deepEqual(first.events, [{ type: 'request.signed', signerRef: 'ref0' }]);
      const second = right(sign(first.request, 'ref1', later(NOW, 5)));
      assert.equal(second.request.state, 'completed');
      assert.equal(second.request.completedAt, later(NOW, 5));
      assert.deepEqual(
        second.events.map((e) => e.type),
        ['request.signed', 'request.completed', 'notice.completed'],
      );
      assert.deepEqual(left(sign(first.request, 'ref0', NOW)), {
        _tag: 'SignerNotPending',
        signerRef: 'ref0',
        state: 'signed',
      });
    });

    it('declines the whole Request when one signer declines', () => {
      const result = right(decline(sent(), 'ref1', NOW, 'Wrong address'));
      assert.equal(result.request.state, 'declined');
      assert.equal(result.request.signers[1]!.state, 'declined');
      assert.deepEqual(left(decline(sent(), 'nobody', NOW, 'No')), {
        _tag: 'UnknownSigner',
        signerRef: 'nobody',
      });
    });
  });

  describe('LOW 8: Execution URL lifetime and reissue', () => {
    const at = (days: number) => later(NOW, days * 86_400);
    const link = (version: number) => ({ signerRef: 'ref0', version });

    it('LOW 8: a link stops opening a lifetime after the send, even while the Request is open', () => {
      const request = sent();
      assert.equal(right(executionAccess(request, link(0), at(29.99), DAY * 30)).signerRef, 'ref0');
      assert.deepEqual(left(executionAccess(request, link(0), at(30), DAY * 30)), {
        _tag: 'LinkExpired',
        expiredAt: at(30),
      });
      // The Request's own expiry, when sooner, is still the Request's.
      assert.equal(linkExpiresAt(sent({ expiresAt: at(3) }), request.signers[0]!, DAY * 30), at(3));
      assert.equal(linkExpiresAt(draft(), request.signers[0]!, DAY * 30), null);
    });

    it('LOW 8: reissuing kills every older link of that signer, and the new one lives a full lifetime from then', () => {
      const base = sent();
      const { request, events } = right(reissueLink(base, 'alice@example.com', at(20), false));
      assert.deepEqual(request.signers[0]!.link, { version: 1, issuedAt: at(20) });
      assert.equal(request.signers[1], base.signers[1], 'other signers are untouched');
      assert.deepEqual(events, []);
      assert.deepEqual(left(executionAccess(request, link(0), at(20), DAY * 30)), { _tag: 'Replaced' });
      assert.equal(right(executionAccess(request, link(1), at(49), DAY * 30)).signerRef, 'ref0');
      assert.equal(left(executionAccess(request, link(1), at(50), DAY * 30))._tag, 'LinkExpired');
      assert.deepEqual(left(executionAccess(request, link(2), at(20), DAY * 30)), { _tag: 'UnknownSigner' });
      const again = right(reissueLink(request, 'alice@example.com', at(21), false)).request;
      assert.deepEqual(left(executionAccess(again, link(1), at(21), DAY * 30)), { _tag: 'Replaced' });
    });

    it('LOW 8: reissue re-notifies on request, only for a sent Request and a signer who has not signed', () => {
      const { events } = right(reissueLink(sent(), 'alice@example.com', NOW, true));
      assert.equal(events.length, 1);
      const event = events[0]!;
      assert.ok(event.type === 'request.reminded');
      assert.deepEqual(
        event.notify.map((s) => [s.signerRef, s.link.version]),
        [['ref0', 1]],
      );
      assert.deepEqual(left(reissueLink(draft(), 'alice@example.com', NOW, false)), {
        _tag: 'StateConflict',
        action: 'reissue_link',
        state: 'draft',
      });
      assert.equal(
        left(reissueLink(sent({ state: 'completed' }), 'alice@example.com', NOW, false))._tag,
        'StateConflict',
      );
      assert.equal(
        left(reissueLink(sent({ expiresAt: NOW }), 'alice@example.com', NOW, false))._tag,
        'RequestExpired',
      );
      assert.equal(left(reissueLink(sent(), 'nobody', NOW, false))._tag, 'UnknownSigner');
      const signed = sent({ signers: [signer({ state: 'signed', signedAt: NOW })] });
      assert.equal(left(reissueLink(signed, 'alice@example.com', NOW, false))._tag, 'SignerNotPending');
      const unreachable = sent({ signers: [signer({ sendTo: { email: false, sms: false } })] });
      assert.equal(left(reissueLink(unreachable, 'alice@example.com', NOW, true))._tag, 'NothingToRemind');
      assert.equal(right(reissueLink(unreachable, 'alice@example.com', NOW, false)).events.length, 0);
    });
  });

  describe('Execution URL access', () => {
    it('opens only while sent and before expiry', () => {
      assert.equal(
        right(executionAccess(sent(), { signerRef: 'ref0', version: 0 }, NOW, DAY * 30)).signerRef,
        'ref0',
      );
      assert.deepEqual(left(executionAccess(draft(), { signerRef: 'ref0', version: 0 }, NOW, DAY * 30)), {
        _tag: 'NotYetSent',
      });
      assert.deepEqual(
        left(executionAccess(sent({ state: 'cancelled' }), { signerRef: 'ref0', version: 0 }, NOW, DAY * 30)),
        {
          _tag: 'Closed',
          state: 'cancelled',
        },
      );
      assert.deepEqual(
        left(executionAccess(sent({ expiresAt: NOW }), { signerRef: 'ref0', version: 0 }, NOW, DAY * 30)),
        { _tag: 'Expired' },
      );
      assert.deepEqual(
        left(executionAccess(sent({ state: 'expired' }), { signerRef: 'ref0', version: 0 }, NOW, DAY * 30)),
        { _tag: 'Expired' },
      );
      assert.deepEqual(left(executionAccess(sent(), { signerRef: 'other', version: 0 }, NOW, DAY * 30)), {
        _tag: 'UnknownSigner',
      });
    });
  });
});
