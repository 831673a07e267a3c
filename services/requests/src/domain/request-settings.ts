import * as E from 'fp-ts/lib/Either.js';
import { isPastExpiry } from './expiry.js';
import type { SignatureRequest, Transition, TransitionError } from './request-model.js';
import { nextReminderAt } from './reminder-schedule.js';
import { turnStartedAt } from './signing-order.js';

/** What a sender changes of an open Request (ADR 3150); absent parts stay as they are. */
export interface RequestSettingsChange {
  /** When the Request expires; null: never. Checked against the clock by the caller. */
  readonly expiresAt?: string | null;
  /** Days between automatic reminders (ADR 3130); null: none. */
  readonly reminderIntervalDays?: number | null;
}

/**
 * When the signers who are to be reminded were last told: the send or the last reminder,
 * or a later turn's start, whichever came last (the automatic schedule counts from it).
 */
const lastNotifiedAt = (request: SignatureRequest): string | null => {
  const last = request.lastRemindedAt ?? request.sentAt;
  const turn = turnStartedAt(request);
  if (last === null || turn === null) return last ?? turn;
  return Date.parse(turn) > Date.parse(last) ? turn : last;
};

/**
 * draft or sent → the same state: the sender moves the Request's expiry (later, sooner, or
 * away) or changes its automatic reminders (ADR 3150). The signers' links live until the
 * new expiry, within their own lifetime (ADR 1321); on a sent Request the next automatic
 * reminder is scheduled again from the last notification, so a shorter interval may make
 * one due at once and null stops them. A change that changes nothing answers the Request
 * as it is, with no event.
 */
export const changeSettings = (
  request: SignatureRequest,
  change: RequestSettingsChange,
  now: string,
  maxReminders: number,
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'draft' && request.state !== 'sent')
    return E.left({ _tag: 'StateConflict', action: 'update', state: request.state });
  if (isPastExpiry(request, now)) return E.left({ _tag: 'RequestExpired', expiresAt: request.expiresAt! });
  const expiresAt = change.expiresAt === undefined ? request.expiresAt : change.expiresAt;
  const reminderIntervalDays =
    change.reminderIntervalDays === undefined ? request.reminderIntervalDays : change.reminderIntervalDays;
  const same = (a: string | null, b: string | null) =>
    a === null || b === null ? a === b : Date.parse(a) === Date.parse(b);
  if (same(expiresAt, request.expiresAt) && reminderIntervalDays === request.reminderIntervalDays)
    return E.right({ request, events: [] });
  const changed: SignatureRequest = { ...request, expiresAt, reminderIntervalDays, updatedAt: now };
  return E.right({
    request: { ...changed, nextReminderAt: nextReminderAt(changed, maxReminders, lastNotifiedAt(changed)) },
    events: [{ type: 'request.updated' }],
  });
};
