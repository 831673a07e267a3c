import type * as t from 'io-ts';
import { nullable, partialUpdate, IsoDateTime } from './primitives.js';
import { ReminderIntervalDays } from './reminders.js';

/**
 * `PATCH /v1.1/requests/:id` body (ADR 3150): an open Request's expiry (in the future, at
 * most 365 days ahead; null: never) and its automatic reminders (1 to 30 days; null:
 * none). At least one of them.
 */
export const UpdateRequestBody = partialUpdate(
  { expires_at: nullable(IsoDateTime), reminder_interval_days: ReminderIntervalDays },
  'UpdateRequestBody',
);
export type UpdateRequestBody = t.TypeOf<typeof UpdateRequestBody>;
