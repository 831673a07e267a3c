import assert from 'node:assert/strict';
import { recordDelivery } from '../../src/domain/delivery-reports.js';
import { later, left, NOW, right, sent, signer } from '../support/builders.js';

describe('requests domain: the notifier’s delivery reports (ADR 2650)', () => {
  it('keeps the latest outcome per channel, whatever the order of arrival', () => {
    const delivered = { outcome: 'delivered' as const, at: later(NOW, 10), eventId: 'e2', error: null };
    const failedEarlier = { outcome: 'failed' as const, at: later(NOW, 5), eventId: 'e1', error: 'bounce' };
    const once = right(recordDelivery(sent(), 'ref0', 'email', delivered));
    const twice = right(recordDelivery(once, 'ref0', 'email', failedEarlier));
    assert.deepEqual(twice.signers[0]!.delivery, { email: delivered, sms: null });
    assert.equal(left(recordDelivery(sent(), 'x', 'sms', delivered))._tag, 'UnknownSigner');
  });

  it('leaves out a report about an address the sender has since corrected (ADR 3140)', () => {
    const bounced = {
      outcome: 'failed' as const,
      at: later(NOW, 10),
      eventId: 'e1',
      error: '550 no such user',
    };
    const request = sent({
      signers: [signer({ contact: { email: 'jane@example.com', mobileNumber: null } })],
    });
    assert.equal(right(recordDelivery(request, 'ref0', 'email', bounced, 'jane@exmaple.com')), request);
    assert.deepEqual(
      right(recordDelivery(request, 'ref0', 'email', bounced, 'jane@example.com')).signers[0]!.delivery.email,
      bounced,
    );
    assert.deepEqual(
      right(recordDelivery(request, 'ref0', 'email', bounced)).signers[0]!.delivery.email,
      bounced,
      'a report without its address (an older notifier) is taken as theirs',
    );
  });

  it('leaves out a report about a signer since replaced in the place, at the same address (ADR 3550)', () => {
    const bounced = { outcome: 'failed' as const, at: later(NOW, 10), eventId: 'e1', error: '550' };
    const request = sent({
      signers: [
        signer({ signerId: 'client-43', contact: { email: 'jane@example.com', mobileNumber: null } }),
      ],
    });
    const about = (signerId: string) =>
      right(recordDelivery(request, 'ref0', 'email', bounced, 'jane@example.com', signerId));
    assert.equal(about('client-42'), request, 'the replaced signer’s report');
    assert.deepEqual(about('client-43').signers[0]!.delivery.email, bounced);
  });
});
