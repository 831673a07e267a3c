import * as E from 'fp-ts/lib/Either.js';
import type { RequestEvent, SignatureRequest, Transition } from './request-model.js';
import { unscheduled } from './reminder-schedule.js';
import { remind, type RemindPolicy } from './signature-request.js';

/** Whether the Request's automatic reminder is due at `now`. */
export const reminderDue = (request: SignatureRequest, now: string): boolean =>
  request.nextReminderAt !== null && Date.parse(request.nextReminderAt) <= Date.parse(now);

/**
 * sent → sent, at the time `nextReminderAt` says (ADR 3130): the same reminder a call
 * sends (the signers whose turn it is and who have not signed, counted in the policy's
 * limit, `request.reminded` marked `automatic`), and the next one scheduled. Never
 * refused, so a sweep always settles what it found due: when nothing is left to remind,
 * the limit is reached or the Request is no longer open, no more are scheduled; when the
 * last notification is too recent for the policy, the reminder moves to when it may go.
 * A Request not due is answered as it is.
 */
export const remindAutomatically = (
  request: SignatureRequest,
  now: string,
  policy: RemindPolicy,
): Transition => {
  if (!reminderDue(request, now)) return { request, events: [] };
  const result = remind(request, now, policy);
  if (E.isRight(result))
    return {
      request: result.right.request,
      events: result.right.events.map((e): RequestEvent =>
        e.type === 'request.reminded' ? { ...e, automatic: true } : e,
      ),
    };
  if (result.left._tag === 'RemindTooSoon') {
    const allowed = Date.parse(now) + result.left.retryAfterSeconds * 1000;
    // At or past expires_at there is no reminder to move to.
    const pastExpiry = request.expiresAt !== null && allowed >= Date.parse(request.expiresAt);
    return {
      request: pastExpiry
        ? unscheduled(request)
        : { ...request, nextReminderAt: new Date(allowed).toISOString() },
      events: [],
    };
  }
  return { request: unscheduled(request), events: [] };
};
