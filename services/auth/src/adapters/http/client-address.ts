import type { AppContext } from '@esign/platform';

/**
 * The caller's address: `hops` proxies back along X-Forwarded-For (the gateway appends the
 * address it saw; each trusted proxy before it does the same), else the socket's. Entries
 * further back were written by the client and are not believed.
 */
export const clientAddress = (ctx: AppContext, hops: number): string => {
  const forwarded = (ctx.get('x-forwarded-for') || '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const chain = [...forwarded, ctx.req.socket.remoteAddress ?? 'unknown'];
  const address = chain[Math.max(0, chain.length - 1 - hops)]!;
  return address.startsWith('::ffff:') ? address.slice(7) : address;
};
