import * as t from 'io-ts';
import { PasswordInput } from './auth-api.js';
import { boundedString, Email, strict } from './primitives.js';

// A user's own password: changing it signed in (ADR 2980), and choosing a new one with an
// e-mailed link when it is forgotten (ADR 3000).

/**
 * `POST /v1.1/sessions/current/password`: the signed-in user's new password (at least 12
 * characters, not the e-mail address, not the current one), with the current one.
 */
export const ChangePasswordBody = strict(
  { current_password: PasswordInput, new_password: PasswordInput },
  {},
  'ChangePasswordBody',
);
export type ChangePasswordBody = t.TypeOf<typeof ChangePasswordBody>;

/** `POST /v1.1/password-resets`: e-mail a link to choose a new password to this address, if a user has it. */
export const PasswordResetRequestBody = strict({ email: Email }, {}, 'PasswordResetRequestBody');
export type PasswordResetRequestBody = t.TypeOf<typeof PasswordResetRequestBody>;

/** The same answer whether or not a user has the address: how long a link, if sent, works. */
export const PasswordResetRequestedView = t.type({ expires_in: t.number });
export type PasswordResetRequestedView = t.TypeOf<typeof PasswordResetRequestedView>;

/** `POST /v1.1/password-resets/confirm`: the link's token and the new password. */
export const PasswordResetConfirmBody = strict(
  { token: boundedString(1, 200), new_password: PasswordInput },
  {},
  'PasswordResetConfirmBody',
);
export type PasswordResetConfirmBody = t.TypeOf<typeof PasswordResetConfirmBody>;

/** What a password change ended: every session (this one too), access token and client secret. */
export const PasswordChangedView = t.type({
  sessions_ended: t.number,
  tokens_revoked: t.number,
  client_secrets_removed: t.number,
});
export type PasswordChangedView = t.TypeOf<typeof PasswordChangedView>;
