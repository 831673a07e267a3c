import * as E from 'fp-ts/lib/Either.js';
import { isPastExpiry } from './expiry.js';
import type { RequestSigner, RequestState, SignatureRequest } from './request-model.js';
import { currentOrder, orderReached } from './signing-order.js';

/**
 * When a signer's Execution URL stops opening on its own: `lifetimeMs` after it was
 * issued (the send, or the last reissue), and never after the Request's `expires_at`.
 * Null before the Request is sent.
 */
export const linkExpiresAt = (
  request: SignatureRequest,
  signer: RequestSigner,
  lifetimeMs: number,
): string | null => {
  const issued = signer.link.issuedAt ?? request.sentAt;
  if (issued === null) return null;
  const own = Date.parse(issued) + lifetimeMs;
  const end = request.expiresAt === null ? own : Math.min(own, Date.parse(request.expiresAt));
  return new Date(end).toISOString();
};

/**
 * Whether an Execution URL of this Request opens for the signer: only while the Request
 * is sent and not past its expiry, only the signer's current link (`version`), and only
 * within its lifetime. The URL's signature is checked before this.
 */
export type ExecutionRefusal =
  | { readonly _tag: 'NotYetSent' }
  | { readonly _tag: 'Closed'; readonly state: RequestState }
  | { readonly _tag: 'Expired' }
  | { readonly _tag: 'UnknownSigner' }
  /** The sender issued this signer a newer link. */
  | { readonly _tag: 'Replaced' }
  /** The link was the signer's whom the sender replaced by someone else (ADR 3550). */
  | { readonly _tag: 'SignerReplaced' }
  /** The link outlived its lifetime; the Request itself may still be open. */
  | { readonly _tag: 'LinkExpired'; readonly expiredAt: string }
  /** Signing in order: the link is live once the signer's order is reached. */
  | { readonly _tag: 'NotYourTurn'; readonly order: number; readonly currentOrder: number };

export const executionAccess = (
  request: SignatureRequest,
  link: { readonly signerRef: string; readonly version: number },
  now: string,
  lifetimeMs: number,
): E.Either<ExecutionRefusal, RequestSigner> => {
  const signer = request.signers.find((s) => s.signerRef === link.signerRef);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner' });
  if (request.state === 'draft')
    return isPastExpiry(request, now) ? E.left({ _tag: 'Expired' }) : E.left({ _tag: 'NotYetSent' });
  if (request.state === 'expired') return E.left({ _tag: 'Expired' });
  if (request.state !== 'sent') return E.left({ _tag: 'Closed', state: request.state });
  if (isPastExpiry(request, now)) return E.left({ _tag: 'Expired' });
  // A version never issued is no link of ours (only a leaked key could sign one).
  if (link.version > signer.link.version) return E.left({ _tag: 'UnknownSigner' });
  if (link.version < signer.link.version)
    return E.left({ _tag: link.version < (signer.placedAtVersion ?? 0) ? 'SignerReplaced' : 'Replaced' });
  const expiresAt = linkExpiresAt(request, signer, lifetimeMs);
  if (expiresAt !== null && Date.parse(now) >= Date.parse(expiresAt))
    return E.left({ _tag: 'LinkExpired', expiredAt: expiresAt });
  if (signer.state === 'pending' && !orderReached(request, signer))
    return E.left({ _tag: 'NotYourTurn', order: signer.order!, currentOrder: currentOrder(request)! });
  return E.right(signer);
};
