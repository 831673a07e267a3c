import * as E from 'fp-ts/lib/Either.js';

/**
 * A Request's life:
 *
 *   draft ──send──▶ sent ──(every signer signs)──▶ completed
 *     │               ├──(a signer declines)────▶ declined
 *     │               ├──cancel─────────────────▶ cancelled
 *     │               └──(expires_at passes)────▶ expired
 *     ├──cancel──────────────────────────────────▶ cancelled
 *     └──(expires_at passes)─────────────────────▶ expired
 *
 * completed, declined, cancelled and expired are final. Execution URLs are live only
 * while the Request is sent and before its expiry.
 */

// The Request's data types, for every importer of this module.
export type * from './request-model.js';
import type {
  RequestState,
  Channel,
  Delivery,
  RequestSigner,
  SignatureRequest,
  RequestEvent,
  Transition,
  Action,
  MissingForSend,
  TransitionError,
} from './request-model.js';
import { currentOrder, firstToNotify, hasTurn, orderReached, startNextTurn } from './signing-order.js';
import { completionNotice, declineNotice } from './signer-notices.js';

const conflict = (action: Action, state: RequestState): E.Either<TransitionError, never> =>
  E.left({ _tag: 'StateConflict', action, state });

export const isPastExpiry = (request: SignatureRequest, now: string): boolean =>
  request.expiresAt !== null && Date.parse(request.expiresAt) <= Date.parse(now);

const expiredError = (request: SignatureRequest): E.Either<TransitionError, never> =>
  E.left({ _tag: 'RequestExpired', expiresAt: request.expiresAt! });

/** The channels a signer can actually be reached on: chosen in send_to and with an address. */
export const notifiableChannels = (signer: RequestSigner): { email: boolean; sms: boolean } => ({
  email: signer.sendTo.email && signer.contact.email !== null,
  sms: signer.sendTo.sms && signer.contact.mobileNumber !== null,
});

const hasChannel = (signer: RequestSigner): boolean => {
  const channels = notifiableChannels(signer);
  return channels.email || channels.sms;
};

/** The spec's send preconditions, all of them at once so the client fixes everything in one go. */
export const missingForSend = (request: SignatureRequest): readonly MissingForSend[] => {
  const missing: MissingForSend[] = [];
  if (request.contracts.length === 0) missing.push({ _tag: 'NoContracts' });
  if (request.signers.length === 0) missing.push({ _tag: 'NoSigners' });
  const unassigned = request.fields.flatMap((f, index) =>
    f.assignedTo === null ? [{ index, name: f.name }] : [],
  );
  if (unassigned.length > 0) missing.push({ _tag: 'UnassignedFields', fields: unassigned });
  return missing;
};

/** draft → sent: Execution URLs go live and every signer is to be told on their chosen channels. */
export const send = (request: SignatureRequest, now: string): E.Either<TransitionError, Transition> => {
  if (request.state !== 'draft') return conflict('send', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  const missing = missingForSend(request);
  if (missing.length > 0) return E.left({ _tag: 'SendPreconditionsFailed', missing });
  const sent: SignatureRequest = { ...request, state: 'sent', sentAt: now, updatedAt: now };
  // Signed in order, only the first order is told now; the others when their turn starts.
  return E.right({ request: sent, events: [{ type: 'request.sent', notify: firstToNotify(sent) }] });
};

/** draft or sent → cancelled: Execution URLs stop working. */
export const cancel = (request: SignatureRequest, now: string): E.Either<TransitionError, Transition> => {
  if (request.state !== 'draft' && request.state !== 'sent') return conflict('cancel', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  return E.right({
    request: { ...request, state: 'cancelled', cancelledAt: now, updatedAt: now },
    events: [{ type: 'request.cancelled', previous: request.state }],
  });
};

/** draft or sent, past `expires_at` → expired: Execution URLs stop working. */
export const expire = (request: SignatureRequest, now: string): E.Either<TransitionError, Transition> => {
  if (request.state !== 'draft' && request.state !== 'sent') return conflict('expire', request.state);
  if (!isPastExpiry(request, now)) return conflict('expire', request.state);
  return E.right({
    request: { ...request, state: 'expired', expiredAt: now, updatedAt: now },
    events: [{ type: 'request.expired', previous: request.state }],
  });
};

export interface RemindPolicy {
  /** Least time between two notifications of one Request (the send counts as the first). */
  readonly minIntervalSeconds: number;
  /** Most reminders one Request may send. */
  readonly maxReminders: number;
}

/** sent → sent: tells again the signers who have not signed, no more often than the policy allows. */
export const remind = (
  request: SignatureRequest,
  now: string,
  policy: RemindPolicy,
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'sent') return conflict('remind', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  if (request.remindCount >= policy.maxReminders)
    return E.left({ _tag: 'RemindLimitReached', limit: policy.maxReminders });
  const last = Date.parse(request.lastRemindedAt ?? request.sentAt ?? request.createdAt);
  const nextAllowed = last + policy.minIntervalSeconds * 1000;
  const nowMs = Date.parse(now);
  if (nowMs < nextAllowed)
    return E.left({ _tag: 'RemindTooSoon', retryAfterSeconds: Math.ceil((nextAllowed - nowMs) / 1000) });
  const notify = request.signers.filter((s) => hasTurn(request, s) && hasChannel(s));
  if (notify.length === 0) return E.left({ _tag: 'NothingToRemind' });
  return E.right({
    request: { ...request, lastRemindedAt: now, remindCount: request.remindCount + 1, updatedAt: now },
    events: [{ type: 'request.reminded', notify }],
  });
};

const findPendingSigner = (
  request: SignatureRequest,
  signerRef: string,
): E.Either<TransitionError, RequestSigner> => {
  const signer = request.signers.find((s) => s.signerRef === signerRef);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef });
  if (signer.state !== 'pending') return E.left({ _tag: 'SignerNotPending', signerRef, state: signer.state });
  if (!orderReached(request, signer))
    return E.left({
      _tag: 'NotYourTurn',
      signerRef,
      order: signer.order!,
      currentOrder: currentOrder(request)!,
    });
  return E.right(signer);
};

const replaceSigner = (
  request: SignatureRequest,
  signerRef: string,
  change: (s: RequestSigner) => RequestSigner,
): readonly RequestSigner[] => request.signers.map((s) => (s.signerRef === signerRef ? change(s) : s));

/** One signer signs; when the last one does, the Request is completed. */
export const sign = (
  request: SignatureRequest,
  signerRef: string,
  now: string,
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'sent') return conflict('sign', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  return E.map((): Transition => {
    const signers = replaceSigner(request, signerRef, (s) => ({ ...s, state: 'signed', signedAt: now }));
    const done = signers.every((s) => s.state === 'signed');
    const events: RequestEvent[] = [{ type: 'request.signed', signerRef }];
    if (done) events.push({ type: 'request.completed' });
    const after: SignatureRequest = {
      ...request,
      signers,
      state: done ? 'completed' : 'sent',
      completedAt: done ? now : null,
      updatedAt: now,
    };
    const turn = startNextTurn(request, after, now);
    return { request: turn.request, events: [...events, ...turn.events, ...completionNotice(turn.request)] };
  })(findPendingSigner(request, signerRef));
};

/** One signer declines: the Request cannot complete, so it ends as declined. */
export const decline = (
  request: SignatureRequest,
  signerRef: string,
  now: string,
  reason: string,
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'sent') return conflict('decline', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  return E.map(() => ({
    request: {
      ...request,
      signers: replaceSigner(request, signerRef, (s) => ({ ...s, state: 'declined', declinedAt: now })),
      state: 'declined' as const,
      declinedAt: now,
      updatedAt: now,
    },
    events: [
      { type: 'request.declined', signerRef, reason } as const,
      ...declineNotice(request, signerRef, reason),
    ],
  }))(findPendingSigner(request, signerRef));
};

/**
 * Records what the notifier reported for one channel of one signer. Outcomes may arrive
 * out of order (a reminder's before the send's); the latest by occurrence wins, so a
 * late report never overwrites a newer one.
 */
export const recordDelivery = (
  request: SignatureRequest,
  signerRef: string,
  channel: Channel,
  delivery: Delivery,
): E.Either<TransitionError, SignatureRequest> => {
  const signer = request.signers.find((s) => s.signerRef === signerRef);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef });
  const current = signer.delivery[channel];
  if (current !== null && Date.parse(current.at) > Date.parse(delivery.at)) return E.right(request);
  return E.right({
    ...request,
    signers: replaceSigner(request, signerRef, (s) => ({
      ...s,
      delivery: { ...s.delivery, [channel]: delivery },
    })),
  });
};

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
 * sent → sent: a new Execution URL for one signer who has not signed. Every older link of
 * theirs stops opening at once (it shows "replaced"), the new one lives a full lifetime
 * from now, and with `notify` the signer is sent it as a reminder (ADR 1321).
 */
export const reissueLink = (
  request: SignatureRequest,
  signerId: string,
  now: string,
  notify: boolean,
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'sent') return conflict('reissue_link', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  const signer = request.signers.find((s) => s.signerId === signerId);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef: signerId });
  if (signer.state !== 'pending')
    return E.left({ _tag: 'SignerNotPending', signerRef: signer.signerRef, state: signer.state });
  if (notify && !hasChannel(signer)) return E.left({ _tag: 'NothingToRemind' });
  const renewed: RequestSigner = { ...signer, link: { version: signer.link.version + 1, issuedAt: now } };
  return E.right({
    request: {
      ...request,
      signers: replaceSigner(request, signer.signerRef, () => renewed),
      updatedAt: now,
    },
    events: notify ? [{ type: 'request.reminded', notify: [renewed] }] : [],
  });
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
  if (link.version < signer.link.version) return E.left({ _tag: 'Replaced' });
  const expiresAt = linkExpiresAt(request, signer, lifetimeMs);
  if (expiresAt !== null && Date.parse(now) >= Date.parse(expiresAt))
    return E.left({ _tag: 'LinkExpired', expiredAt: expiresAt });
  if (signer.state === 'pending' && !orderReached(request, signer))
    return E.left({ _tag: 'NotYourTurn', order: signer.order!, currentOrder: currentOrder(request)! });
  return E.right(signer);
};
