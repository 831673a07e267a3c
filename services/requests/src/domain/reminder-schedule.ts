import type { SignatureRequest } from './request-model.js';
import { turnStartedAt } from './signing-order.js';

const DAY_MS = 86_400_000;

/**
 * When the signers who are to be reminded were last told: the send or the last reminder,
 * or a later turn's start (signing in order), whichever came last. Both the automatic
 * schedule and the minimum interval between reminders count from it. Null before the send.
 */
export const lastNotifiedAt = (request: SignatureRequest): string | null => {
  const last = request.lastRemindedAt ?? request.sentAt;
  const turn = turnStartedAt(request);
  if (last === null || turn === null) return last ?? turn;
  return Date.parse(turn) > Date.parse(last) ? turn : last;
};

/**
 * How long before `expires_at` a Request with automatic reminders warns its signers (ADR
 * 3470), and how long before that warning they must have last been told for it to go.
 */
export const EXPIRY_WARNING_MS = DAY_MS;

/**
 * The mark of a reminder sent at `nowMs` in the last day before the Request's expiry, whose
 * event says `last_day` (ADR 3470): the expiry warning, due `EXPIRY_WARNING_MS` before, has
 * it, and so has any reminder that late. Nothing otherwise.
 */
export const lastDayOf = (request: SignatureRequest, nowMs: number): { readonly lastDay?: true } =>
  request.expiresAt !== null && Date.parse(request.expiresAt) - nowMs <= EXPIRY_WARNING_MS
    ? { lastDay: true }
    : {};

/**
 * When the next automatic reminder of `request` falls due (ADR 3130): its
 * `reminderIntervalDays` after `from`, by default the last notification of all (the send,
 * or the last reminder, by a call or automatic, so a call pushes the next one back), never
 * at or past `expires_at`; and, when it expires, the expiry warning a day before
 * `expires_at` (ADR 3470) if that comes first and they were last told at least a day before
 * it (once it went, they were told at it, so it goes once). Null when none is to go: not
 * sent, no interval, or `maxReminders` reached (a transition that knows no policy leaves
 * that to the reminder itself).
 */
export const nextReminderAt = (
  request: SignatureRequest,
  maxReminders = Infinity,
  from: string | null = request.lastRemindedAt ?? request.sentAt,
): string | null => {
  if (request.state !== 'sent' || request.reminderIntervalDays === null || from === null) return null;
  if (request.remindCount >= maxReminders) return null;
  const last = Date.parse(from);
  const interval = last + request.reminderIntervalDays * DAY_MS;
  if (request.expiresAt === null) return new Date(interval).toISOString();
  const expires = Date.parse(request.expiresAt);
  const warning = expires - EXPIRY_WARNING_MS;
  const due = [
    ...(interval < expires ? [interval] : []),
    ...(warning - last >= EXPIRY_WARNING_MS ? [warning] : []),
  ];
  return due.length === 0 ? null : new Date(Math.min(...due)).toISOString();
};

/** `request` with its schedule as `nextReminderAt` says. */
export const scheduled = (request: SignatureRequest, maxReminders?: number): SignatureRequest => ({
  ...request,
  nextReminderAt: nextReminderAt(request, maxReminders),
});

/**
 * `request` after a later turn started at `at` (signing in order): its signers were first
 * told then, so their first reminder counts from then, even when the schedule had stopped
 * because nobody of the turn before could be reminded.
 */
export const scheduledFromTurn = (request: SignatureRequest, at: string): SignatureRequest => ({
  ...request,
  nextReminderAt: nextReminderAt(request, Infinity, at),
});

/** `request` with no automatic reminder to come: it ended, or has nothing left to remind. */
export const unscheduled = (request: SignatureRequest): SignatureRequest =>
  request.nextReminderAt === null ? request : { ...request, nextReminderAt: null };
