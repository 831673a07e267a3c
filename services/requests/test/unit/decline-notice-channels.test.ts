import assert from 'node:assert/strict';
import { envelopes } from '../../src/application/events.js';
import { decline } from '../../src/domain/signature-request.js';
import type { Ids } from '../../src/ports/ids.js';
import { NOW, right, sent, signer } from '../support/builders.js';

const ids = { eventId: () => '00000000-0000-4000-9000-000000000001' } as Ids;

describe('requests: a decline told to each signer by the channels they were invited by (ADRs 2002, 3500)', () => {
  it('texts a signer invited by text, e-mails one invited by e-mail, and one invited by none as before', () => {
    const request = sent({
      signers: [
        signer({ signerRef: 'decliner', signerId: 'a@x.co' }),
        signer({ signerRef: 'email', signerId: 'b@x.co' }),
        signer({
          signerRef: 'sms',
          signerId: '2025550143',
          contact: { email: null, mobileNumber: '12025550143' },
          sendTo: { email: false, sms: true },
        }),
        // Embedded signing: sent nothing, told by e-mail since ADR 2002.
        signer({ signerRef: 'embedded', signerId: 'c@x.co', sendTo: { email: false, sms: false } }),
        // Neither a channel nor an address: nobody to tell.
        signer({
          signerRef: 'unreachable',
          signerId: 'client-7',
          contact: { email: null, mobileNumber: null },
          sendTo: { email: false, sms: false },
        }),
      ],
    });
    const { request: after, events } = right(decline(request, 'decliner', NOW, 'Wrong price'));
    const [, notice] = envelopes({ ids, executionUrl: () => 'https://x/sign' }, after, events);
    assert.equal(notice!.type, 'notice.declined');
    const told = (notice!.data as { signers: { signer_ref: string; send_to: unknown }[] }).signers;
    assert.deepEqual(
      told.map((s) => [s.signer_ref, s.send_to]),
      [
        ['email', { email: true, mobile_number: false }],
        ['sms', { email: false, mobile_number: true }],
        ['embedded', { email: true, mobile_number: false }],
      ],
    );
  });
});
