import assert from 'node:assert/strict';
import { decodeFeedCursor, encodeFeedCursor, FEED_START } from '../../src/application/feed-cursor.js';

describe('requests: the event feed’s cursor (ADR 3190)', () => {
  it('gives back the position it holds, for the largest ids too', () => {
    for (const position of [
      FEED_START,
      { txid: '7421', id: '93' },
      { txid: '18446744073709551615', id: '9223372036854775807' },
    ])
      assert.deepEqual(decodeFeedCursor(encodeFeedCursor(position)), position);
  });

  it('refuses what it did not write: other text, another spelling of a position, padding', () => {
    const own = encodeFeedCursor({ txid: '12', id: '5' });
    for (const cursor of [
      '',
      'not-a-cursor',
      Buffer.from('12.5.1').toString('base64url'),
      Buffer.from('012.5').toString('base64url'),
      Buffer.from('12.-5').toString('base64url'),
      Buffer.from('12.5').toString('base64'),
      // Beyond what Postgres holds: a transaction id past 2^64 - 1, an id past 2^63 - 1.
      encodeFeedCursor({ txid: '18446744073709551616', id: '1' }),
      encodeFeedCursor({ txid: '1', id: '9223372036854775808' }),
      `${own}=`,
      `${own}A`,
    ])
      assert.equal(decodeFeedCursor(cursor), undefined, cursor);
  });
});
