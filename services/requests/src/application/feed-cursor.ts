import type { FeedPosition } from '../ports/request-repository.js';

/** Before the Site's first entry. */
export const FEED_START: FeedPosition = { txid: '0', id: '0' };

const POSITION = /^(0|[1-9][0-9]{0,19})\.(0|[1-9][0-9]{0,18})$/;
/** A transaction id is an unsigned 64-bit integer (`xid8`), an entry's id a `bigint`. */
const MAX_TXID = 2n ** 64n - 1n;
const MAX_ID = 2n ** 63n - 1n;

/**
 * The `after` / `next_after` of a Site's event feed (ADR 3190): a position, opaque to the
 * client (base64url), so what it holds can change without a new parameter.
 */
export const encodeFeedCursor = (p: FeedPosition): string =>
  Buffer.from(`${p.txid}.${p.id}`).toString('base64url');

/** The position a cursor this API gave holds; undefined for anything else. */
export const decodeFeedCursor = (cursor: string): FeedPosition | undefined => {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (match === null || BigInt(match[1]!) > MAX_TXID || BigInt(match[2]!) > MAX_ID) return undefined;
  const position = { txid: match[1]!, id: match[2]! };
  // One spelling per position: anything that does not encode back to itself was not ours.
  return encodeFeedCursor(position) === cursor ? position : undefined;
};
