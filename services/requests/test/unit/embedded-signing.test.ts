import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { chooseParentOrigin, openingOf, type EmbeddedSession } from '../../src/domain/embedded-signing.js';

const HOST = 'https://portal.client.example';
const STAGING = 'https://staging.client.example';

const session = (over: Partial<EmbeddedSession> = {}): EmbeddedSession => ({
  id: '00000000-0000-4000-8000-000000000001',
  requestId: '00000000-0000-4000-8000-000000000002',
  signerRef: 'ref1',
  signerId: 'ada@example.com',
  frameOrigins: [HOST],
  parentOrigin: HOST,
  createdAt: '2030-01-01T12:00:00.000Z',
  expiresAt: '2030-01-01T12:05:00.000Z',
  openedAt: null,
  ...over,
});

describe('embedded signing rules (ADR 2300)', () => {
  it('posts to the origin asked for when the app allows it, else to the app’s only origin', () => {
    assert.deepEqual(chooseParentOrigin([HOST, STAGING], STAGING), E.right(STAGING));
    assert.deepEqual(chooseParentOrigin([HOST], undefined), E.right(HOST));
  });

  it('refuses no origins, an origin the app does not list, and a missing choice among several', () => {
    for (const [origins, asked] of [
      [[], HOST],
      [[HOST], STAGING],
      [[HOST, STAGING], undefined],
    ] as const) {
      const chosen = chooseParentOrigin(origins, asked);
      assert.ok(E.isLeft(chosen) && chosen.left._tag === 'InvalidParentOrigin', `${origins.join()} ${asked}`);
    }
  });

  it('opens for the opening that claimed it; any other is "used" or, past 5 minutes, "expired"', () => {
    const now = '2030-01-01T12:01:00.000Z';
    assert.equal(openingOf(O.none, now)._tag, 'Unknown');
    assert.equal(
      openingOf(O.some({ session: session({ openedAt: now }), claimed: true }), now)._tag,
      'Opened',
    );
    assert.equal(
      openingOf(O.some({ session: session({ openedAt: now }), claimed: false }), now)._tag,
      'Used',
    );
    assert.equal(
      openingOf(O.some({ session: session(), claimed: false }), '2030-01-01T12:05:00.000Z')._tag,
      'Expired',
    );
    // Opened once and now late as well: it was used, which is what the signer needs to hear.
    assert.equal(
      openingOf(O.some({ session: session({ openedAt: now }), claimed: false }), '2030-01-01T13:00:00.000Z')
        ._tag,
      'Used',
    );
  });
});
