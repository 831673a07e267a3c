import * as t from 'io-ts';
import { nullable, refine } from './primitives.js';

/** Most days between two automatic reminders (ADR 3130). */
export const MAX_REMINDER_INTERVAL_DAYS = 30;

/**
 * Days between automatic reminders of a sent Request (ADR 3130): an integer from 1 to 30,
 * or null (as absent) for none.
 */
export const ReminderIntervalDays = refine(
  nullable(t.number),
  (n): n is number | null =>
    n === null || (Number.isSafeInteger(n) && n >= 1 && n <= MAX_REMINDER_INTERVAL_DAYS),
  `must be an integer from 1 to ${MAX_REMINDER_INTERVAL_DAYS} (days), or null for no automatic reminders`,
  'ReminderIntervalDays',
  { type: ['integer', 'null'], minimum: 1, maximum: MAX_REMINDER_INTERVAL_DAYS },
);
