import * as E from 'fp-ts/lib/Either.js';
import { isPastExpiry } from './expiry.js';
import type { SignatureRequest, Transition, TransitionError } from './request-model.js';
import { lastNotifiedAt, nextReminderAt } from './reminder-schedule.js';

/** What a sender changes of an open Request (ADR 3150); absent parts stay as they are. */
export interface RequestSettingsChange {
  /** When the Request expires; null: never. Checked against the clock by the caller. */
  readonly expiresAt?: string | null;
  /** Days between automatic reminders (ADR 3130); null: none. */
  readonly reminderIntervalDays?: number | null;
}

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
