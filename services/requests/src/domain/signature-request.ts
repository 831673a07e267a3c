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

// The Request's data types, and whether its links open, for every importer of this module.
export type * from './request-model.js';
export { isPastExpiry } from './expiry.js';
export * from './execution-access.js';
export { notifiableChannels } from './channels.js';
export * from './delivery-reports.js';
import type {
  RequestState,
  RequestSigner,
  SignatureRequest,
  RequestEvent,
  Transition,
  Action,
  MissingForSend,
  TransitionError,
} from './request-model.js';
import { isPastExpiry } from './expiry.js';
import { hasChannel } from './channels.js';
import {
  currentOrder,
  firstToNotify,
  hasTurn,
  orderReached,
  signersWithoutOrder,
  startNextTurn,
} from './signing-order.js';
import * as notices from './signer-notices.js';
import { lastDayOf, lastNotifiedAt, scheduled, scheduledFromTurn, unscheduled } from './reminder-schedule.js';

const conflict = (action: Action, state: RequestState): E.Either<TransitionError, never> =>
  E.left({ _tag: 'StateConflict', action, state });

const expiredError = (request: SignatureRequest): E.Either<TransitionError, never> =>
  E.left({ _tag: 'RequestExpired', expiresAt: request.expiresAt! });

/** The spec's send preconditions, all of them at once so the client fixes everything in one go. */
export const missingForSend = (request: SignatureRequest): readonly MissingForSend[] => {
  const missing: MissingForSend[] = [];
  if (request.contracts.length === 0) missing.push({ _tag: 'NoContracts' });
  if (request.signers.length === 0) missing.push({ _tag: 'NoSigners' });
  const unassigned = request.fields.flatMap((f, index) =>
    f.assignedTo === null ? [{ index, name: f.name }] : [],
  );
  if (unassigned.length > 0) missing.push({ _tag: 'UnassignedFields', fields: unassigned });
  // A draft's signers' orders are changed one at a time (ADR 3290): all of them, or none.
  const withoutOrder = signersWithoutOrder(request.signers.map((s) => s.order ?? undefined)).map((index) => ({
    index,
    signerId: request.signers[index]!.signerId,
  }));
  if (withoutOrder.length > 0) missing.push({ _tag: 'SignersWithoutOrder', signers: withoutOrder });
  return missing;
};

/** draft → sent: Execution URLs go live and every signer is to be told on their chosen channels. */
export const send = (request: SignatureRequest, now: string): E.Either<TransitionError, Transition> => {
  if (request.state !== 'draft') return conflict('send', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  const missing = missingForSend(request);
  if (missing.length > 0) return E.left({ _tag: 'SendPreconditionsFailed', missing });
  // The first automatic reminder, if any, counts from now (ADR 3130).
  const sent = scheduled({ ...request, state: 'sent', sentAt: now, updatedAt: now });
  // Signed in order, only the first order is told now; the others when their turn starts.
  return E.right({ request: sent, events: [{ type: 'request.sent', notify: firstToNotify(sent) }] });
};

/** draft or sent → cancelled: Execution URLs stop working; its signers told when asked (ADR 3500). */
export const cancel = (
  request: SignatureRequest,
  now: string,
  order: notices.CancelOrder = {},
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'draft' && request.state !== 'sent') return conflict('cancel', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  const { reason } = order;
  const notice = order.notifySigners === true ? notices.cancelNotice(request, reason) : [];
  const told = notice.length > 0 && { signersNotified: true as const };
  return E.right({
    request: { ...unscheduled(request), state: 'cancelled', cancelledAt: now, updatedAt: now },
    events: [
      { type: 'request.cancelled', previous: request.state, ...(reason && { reason }), ...told },
      ...notice,
    ],
  });
};

/** draft or sent, past `expires_at` → expired: Execution URLs stop working. */
export const expire = (request: SignatureRequest, now: string): E.Either<TransitionError, Transition> => {
  if (request.state !== 'draft' && request.state !== 'sent') return conflict('expire', request.state);
  if (!isPastExpiry(request, now)) return conflict('expire', request.state);
  return E.right({
    request: { ...unscheduled(request), state: 'expired', expiredAt: now, updatedAt: now },
    events: [{ type: 'request.expired', previous: request.state }, ...notices.expiryNotice(request)],
  });
};

export interface RemindPolicy {
  /** Least time between two notifications of one Request (the send counts as the first). */
  readonly minIntervalSeconds: number;
  /** Most reminders one Request may send. */
  readonly maxReminders: number;
}

/**
 * sent → sent: tells again the signers who have not signed, no more often than the policy
 * allows after the last notification (the send, the last reminder, or a later turn's start).
 */
export const remind = (
  request: SignatureRequest,
  now: string,
  policy: RemindPolicy,
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'sent') return conflict('remind', request.state);
  if (isPastExpiry(request, now)) return expiredError(request);
  if (request.remindCount >= policy.maxReminders)
    return E.left({ _tag: 'RemindLimitReached', limit: policy.maxReminders });
  const last = Date.parse(lastNotifiedAt(request) ?? request.createdAt);
  const nextAllowed = last + policy.minIntervalSeconds * 1000;
  const nowMs = Date.parse(now);
  if (nowMs < nextAllowed)
    return E.left({ _tag: 'RemindTooSoon', retryAfterSeconds: Math.ceil((nextAllowed - nowMs) / 1000) });
  const notify = request.signers.filter((s) => hasTurn(request, s) && hasChannel(s));
  if (notify.length === 0) return E.left({ _tag: 'NothingToRemind' });
  return E.right({
    // The next automatic reminder counts from this one, whoever sent it (ADR 3130).
    request: scheduled(
      { ...request, lastRemindedAt: now, remindCount: request.remindCount + 1, updatedAt: now },
      policy.maxReminders,
    ),
    events: [{ type: 'request.reminded', notify, ...lastDayOf(request, nowMs) }],
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
      nextReminderAt: done ? null : request.nextReminderAt,
      updatedAt: now,
    };
    const turn = startNextTurn(request, after, now);
    // A new turn's signers are told now: their reminders count from now (ADR 3130).
    const next = turn.events.length > 0 ? scheduledFromTurn(turn.request, now) : turn.request;
    return { request: next, events: [...events, ...turn.events, ...notices.completionNotice(next)] };
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
      nextReminderAt: null,
      updatedAt: now,
    },
    events: [
      { type: 'request.declined', signerRef, reason } as const,
      ...notices.declineNotice(request, signerRef, reason),
    ],
  }))(findPendingSigner(request, signerRef));
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
