import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { RequestSigner, SignatureRequest } from './request-model.js';
import { executionAccess, linkExpiresAt } from './signature-request.js';

/**
 * Embedded signing (ADR 2300): rules over a Request and an embedded URL, no I/O.
 * An embedded URL belongs to one signer whose turn it is, opens once, and is framed only
 * by the origins of the Developer App whose token asked for it.
 */

export interface EmbeddedSession {
  readonly id: string;
  readonly requestId: string;
  readonly signerRef: string;
  /** The client's signer_id, for the events the page posts. */
  readonly signerId: string;
  /** CSP frame-ancestors: the app's allowed_frame_origins when the URL was made. */
  readonly frameOrigins: readonly string[];
  /** The one origin the page posts its events to. */
  readonly parentOrigin: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly openedAt: string | null;
}

export type EmbeddedUrlRefusal =
  /** The body is fine, but names an origin the app does not allow (or the app allows none). */
  | { readonly _tag: 'InvalidParentOrigin'; readonly message: string }
  | { readonly _tag: 'EmbeddedNotOpen'; readonly reason: string };

/**
 * Which origin the page will post to: the one asked for, if the app allows it; else the
 * app's only origin.
 */
export const chooseParentOrigin = (
  frameOrigins: readonly string[],
  requested: string | undefined,
): E.Either<EmbeddedUrlRefusal, string> => {
  if (frameOrigins.length === 0)
    return E.left({
      _tag: 'InvalidParentOrigin',
      message: 'the Developer App of this token allows no frame origins: set its allowed_frame_origins first',
    });
  if (requested === undefined) {
    if (frameOrigins.length === 1) return E.right(frameOrigins[0]!);
    return E.left({
      _tag: 'InvalidParentOrigin',
      message: 'required: the Developer App allows more than one frame origin',
    });
  }
  return frameOrigins.includes(requested)
    ? E.right(requested)
    : E.left({
        _tag: 'InvalidParentOrigin',
        message: "is not one of the Developer App's allowed_frame_origins",
      });
};

/**
 * Whether an embedded URL may be made for the signer now: the Request is sent and open,
 * the signer has neither signed nor declined, it is their turn, and their Execution URL
 * (which the embedded page opens) is live. A signer who must enter a code (ADR 2001) signs
 * through their Execution URL: the host application authenticates embedded signers.
 */
export const embeddableSigner = (
  request: SignatureRequest,
  signerId: string,
  now: string,
  lifetimeMs: number,
): E.Either<EmbeddedUrlRefusal | { readonly _tag: 'UnknownSigner' }, RequestSigner> => {
  const signer = request.signers.find((s) => s.signerId === signerId);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner' });
  if (request.state !== 'sent')
    return E.left({ _tag: 'EmbeddedNotOpen', reason: `The Request is ${request.state}.` });
  if (signer.state !== 'pending')
    return E.left({ _tag: 'EmbeddedNotOpen', reason: `The signer has ${signer.state}.` });
  if (signer.authentication !== null)
    return E.left({
      _tag: 'EmbeddedNotOpen',
      reason: 'The signer must enter a code (authentication), which embedded signing does not offer.',
    });
  const access = executionAccess(
    request,
    { signerRef: signer.signerRef, version: signer.link.version },
    now,
    lifetimeMs,
  );
  if (E.isRight(access)) return access;
  switch (access.left._tag) {
    case 'NotYourTurn':
      return E.left({
        _tag: 'EmbeddedNotOpen',
        reason: `It is not the signer's turn: order ${access.left.order} comes after the current order ${access.left.currentOrder}.`,
      });
    case 'LinkExpired':
      return E.left({
        _tag: 'EmbeddedNotOpen',
        reason: `The signer's Execution URL expired at ${linkExpiresAt(request, signer, lifetimeMs) ?? ''}: reissue it first.`,
      });
    case 'Expired':
      return E.left({ _tag: 'EmbeddedNotOpen', reason: 'The Request has expired.' });
    default:
      return E.left({ _tag: 'EmbeddedNotOpen', reason: 'The signer cannot sign now.' });
  }
};

export type EmbeddedOpening =
  | { readonly _tag: 'Opened'; readonly session: EmbeddedSession }
  | { readonly _tag: 'Unknown' }
  | { readonly _tag: 'Used'; readonly session: EmbeddedSession }
  | { readonly _tag: 'Expired'; readonly session: EmbeddedSession };

/**
 * What opening an embedded URL comes to, given whether this opening claimed it (the store
 * claims it with one conditional update, so two openings at once cannot both win).
 */
export const openingOf = (
  claim: O.Option<{ readonly session: EmbeddedSession; readonly claimed: boolean }>,
  now: string,
): EmbeddedOpening => {
  if (O.isNone(claim)) return { _tag: 'Unknown' };
  const found = claim.value;
  if (found.claimed) return { _tag: 'Opened', session: found.session };
  if (found.session.openedAt !== null) return { _tag: 'Used', session: found.session };
  if (Date.parse(now) >= Date.parse(found.session.expiresAt))
    return { _tag: 'Expired', session: found.session };
  return { _tag: 'Used', session: found.session };
};
