import * as t from 'io-ts';
import { isUuid } from './ids.js';

/** The routing key (and `type`) of a request for a link to choose a new password (ADR 3000). */
export const PASSWORD_RESET_REQUESTED = 'account.password_reset_requested';

/**
 * Auth's one event: a user asked for a link to choose a new password. It belongs to no
 * Site, so it carries no `site_id` and never reaches a webhook; the notifier e-mails the
 * link. `reset_url` holds the single-use secret: it is good until `expires_at` and only
 * until it is used, a newer link is asked for, or the password changes.
 */
export const PasswordResetRequested = t.type(
  {
    id: t.refinement(t.string, isUuid, 'Uuid'),
    type: t.literal(PASSWORD_RESET_REQUESTED),
    occurred_at: t.string,
    /** The user's id. */
    aggregate_id: t.string,
    data: t.type({ email: t.string, reset_url: t.string, expires_at: t.string }),
  },
  PASSWORD_RESET_REQUESTED,
);
export type PasswordResetRequested = t.TypeOf<typeof PasswordResetRequested>;
