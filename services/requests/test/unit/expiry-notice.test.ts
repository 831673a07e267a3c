import assert from 'node:assert/strict';
import { expire } from '../../src/domain/signature-request.js';
import { draft, later, NOW, right, sent } from '../support/builders.js';

const creator = { userId: 'u-1', email: 'owner@acme.example' };
const due = { expiresAt: NOW };
const after = later(NOW, 1);

describe('requests domain: the creating user told of an expiry (ADR 3520)', () => {
  it('tells the creating user when a sent Request expires', () => {
    const { events } = right(expire(sent({ ...due, creator }), after));
    assert.deepEqual(events, [{ type: 'request.expired', previous: 'sent' }, { type: 'notice.expired' }]);
  });

  it('tells nobody of a draft that expired unsent, nor when the creator’s address is unknown', () => {
    for (const request of [
      draft({ ...due, creator }),
      sent({ ...due, creator: { userId: 'u-1', email: null } }),
      sent({ ...due, creator: null }),
      sent(due),
    ]) {
      const { events } = right(expire(request, after));
      assert.deepEqual(events, [{ type: 'request.expired', previous: request.state }], request.state);
    }
  });
});
