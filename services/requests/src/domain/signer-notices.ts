import type { RequestEvent, RequestSigner, SignatureRequest } from './request-model.js';
import { orderReached } from './signing-order.js';
import { hasChannel } from './channels.js';

/**
 * Who is told when a Request ends (ADR 2002): on completion every signer with an e-mail
 * address gets a link to their copy; on a decline, the other signers who were already
 * told of the Request (in order: those whose turn had come) get the reason. The creating
 * user, when their address is known, is told of both (ADR 2003), and the Request's
 * carbon copies get a link to a copy on completion (ADR 3230); both are added to the
 * event's recipients when it is built (application/events.ts).
 */
export const COPY_LINK_DAYS = 30;

const hasEmail = (s: RequestSigner) => s.contact.email !== null;

const creatorHasEmail = (request: SignatureRequest) =>
  request.creator !== undefined && request.creator !== null && request.creator.email !== null;

export const completionNotice = (after: SignatureRequest): RequestEvent[] =>
  after.state === 'completed' &&
  (after.signers.some(hasEmail) || creatorHasEmail(after) || (after.cc?.length ?? 0) > 0)
    ? [{ type: 'notice.completed', notify: after.signers.filter(hasEmail) }]
    : [];

export const declineNotice = (
  before: SignatureRequest,
  signerRef: string,
  reason: string,
): RequestEvent[] => {
  // A signer invited by text hears of it too (ADR 3500); one invited by no channel, by e-mail as before.
  const told = before.signers.filter(
    (s) => s.signerRef !== signerRef && (hasChannel(s) || hasEmail(s)) && orderReached(before, s),
  );
  return told.length === 0 && !creatorHasEmail(before)
    ? []
    : [{ type: 'notice.declined', signerRef, reason, notify: told }];
};

/**
 * The creating user told that a Request they sent expired before everyone signed (ADR 3520),
 * when their address is known: they are the one waiting for it. Its signers are not told:
 * their links say it expired, and the expiry was theirs to meet.
 */
export const expiryNotice = (before: SignatureRequest): RequestEvent[] =>
  before.state === 'sent' && creatorHasEmail(before) ? [{ type: 'notice.expired' }] : [];

/** How a cancel is asked for (ADR 3500): why, and whether the signers who were told are told of it. */
export interface CancelOrder {
  readonly reason?: string;
  readonly notifySigners?: boolean;
}

/**
 * The signers told of a sent Request's cancel (ADR 3500): those who had been told of the
 * Request, by any channel (in order: those whose turn had come), signed or not, each by
 * the channels they were invited by. A draft's signers were never told of it.
 */
export const cancelNotice = (before: SignatureRequest, reason: string | undefined): RequestEvent[] => {
  if (before.state !== 'sent') return [];
  const told = before.signers.filter((s) => hasChannel(s) && orderReached(before, s));
  return told.length === 0 ? [] : [{ type: 'notice.cancelled', reason, notify: told }];
};
