import * as t from 'io-ts';
import { accountEnvelope } from './event-envelope.js';
import { AppChanged, SigningKeysWithdrawn, TokenRevoked } from './token-events.js';

/** The routing key (and `type`) of a request for a link to choose a new password (ADR 3000). */
export const PASSWORD_RESET_REQUESTED = 'account.password_reset_requested';

/**
 * A user asked for a link to choose a new password. It belongs to no
 * Site, so it carries no `site_id` and never reaches a webhook; the notifier e-mails the
 * link. `reset_url` holds the single-use secret: it is good until `expires_at` and only
 * until it is used, a newer link is asked for, or the password changes.
 * Its `aggregate_id` is the user's id.
 */
export const PasswordResetRequested = accountEnvelope(
  PASSWORD_RESET_REQUESTED,
  t.intersection([
    t.type({ email: t.string, reset_url: t.string, expires_at: t.string }),
    /**
     * Sent by an operator rather than asked for (ADR 3160): `welcome` for a user just
     * made (the e-mail names the account and says the link chooses their first password).
     */
    t.partial({ by_operator: t.literal(true), welcome: t.type({ account_name: t.string }) }),
  ]),
);
export type PasswordResetRequested = t.TypeOf<typeof PasswordResetRequested>;

/** The routing key (and `type`) of a password that changed (ADR 3020). */
export const PASSWORD_CHANGED = 'account.password_changed';

/** Who changed it: the user signed in, the user with an e-mailed link, or an operator. */
export const PasswordChangedBy = t.keyof(
  { user: null, reset_link: null, operator: null },
  'PasswordChangedBy',
);
export type PasswordChangedBy = t.TypeOf<typeof PasswordChangedBy>;

/**
 * A user's password changed, however it was (ADR 3020): the notifier tells them, so that
 * a change they did not make does not go unnoticed. Written in the change's transaction.
 * Its `aggregate_id` is the user's id.
 */
export const PasswordChangedNotice = accountEnvelope(
  PASSWORD_CHANGED,
  t.type({ email: t.string, by: PasswordChangedBy }),
);
export type PasswordChangedNotice = t.TypeOf<typeof PasswordChangedNotice>;

/** The routing key (and `type`) of an invitation to join an account (ADR 3030). */
export const USER_INVITED = 'account.user_invited';

/**
 * An account admin invited someone to the account: the notifier e-mails them the link.
 * `accept_url` holds the single-use secret: it is good until `expires_at` and only until
 * it is used, revoked or replaced by a newer invitation of the same address.
 * Its `aggregate_id` is the invitation's id.
 */
export const UserInvited = accountEnvelope(
  USER_INVITED,
  t.intersection([
    t.type({
      email: t.string,
      account_name: t.string,
      /** The inviting admin's e-mail address. */
      invited_by: t.string,
      accept_url: t.string,
      expires_at: t.string,
    }),
    /** Whether accepting makes an admin (ADR 3090); absent from events written before it. */
    t.partial({ admin: t.boolean }),
  ]),
);
export type UserInvited = t.TypeOf<typeof UserInvited>;

/** The routing key (and `type`) of an invitation accepted (ADR 3030). */
export const INVITATION_ACCEPTED = 'account.invitation_accepted';

/**
 * The invitee joined: the admin who invited them is told, so they know the colleague is in
 * (and, were it not the colleague, that someone is). Written in the acceptance's transaction,
 * only while the inviting admin is still a user who can be told (not disabled).
 * Its `aggregate_id` is the invitation's id.
 */
export const InvitationAccepted = accountEnvelope(
  INVITATION_ACCEPTED,
  t.intersection([
    t.type({
      /** The inviting admin's address: whom the e-mail goes to. */
      email: t.string,
      account_name: t.string,
      /** The address the new user signs in with. */
      joined: t.string,
    }),
    /** Whether they joined as an admin (ADR 3090); absent from events written before it. */
    t.partial({ admin: t.boolean }),
  ]),
);
export type InvitationAccepted = t.TypeOf<typeof InvitationAccepted>;

/** The routing key (and `type`) of a change to what a user of an account may do (ADR 3060). */
export const ACCESS_CHANGED = 'account.access_changed';

/**
 * What an account admin changed about a user of the account (ADR 3060): `made_admin` and
 * `removed_admin` are told to every enabled admin of the account and to the user, so a
 * stolen admin session that demotes the others does not go unnoticed; `disabled` and
 * `enabled` are told to the user themselves. `joined_as_admin` (ADR 3090): someone accepted
 * an invitation that made them an admin (`by`: who invited them); told to every other
 * enabled admin (the inviter hears `account.invitation_accepted`). An operator's change with
 * the admin CLI (ADR 3120, `by_operator`) is also told to the account's enabled admins when it
 * disables or enables one of its users. One event per recipient (`email`), written in the
 * change's transaction.
 */
export const AccessChange = t.keyof(
  { made_admin: null, removed_admin: null, disabled: null, enabled: null, joined_as_admin: null },
  'AccessChange',
);
export type AccessChange = t.TypeOf<typeof AccessChange>;

/** Its `aggregate_id` is the changed user's id. */
export const AccessChanged = accountEnvelope(
  ACCESS_CHANGED,
  t.intersection([
    t.type({
      /** Whom this e-mail goes to. */
      email: t.string,
      account_name: t.string,
      change: AccessChange,
      /** The changed user's address (the recipient's own, when it is about them). */
      user: t.string,
      /** The admin who made the change; `operator` when `by_operator`. */
      by: t.string,
    }),
    /**
     * An operator of the service made the change with the admin CLI (ADR 3120), not an
     * admin of the account; absent from events written before it, and from admins' changes.
     */
    t.partial({ by_operator: t.boolean }),
  ]),
);
export type AccessChanged = t.TypeOf<typeof AccessChanged>;

/** The routing key (and `type`) of an account's API access turned off or on (ADR 3120). */
export const API_ACCESS_CHANGED = 'account.api_access_changed';

/**
 * An operator turned the account's API access off or on with the admin CLI's
 * `set-api-access` (ADR 3120). Off, none of its users can sign in or use a token; each
 * enabled user of the account is told, one event per recipient (`email`), written in the
 * change's transaction. Setting what already is tells nobody.
 * Its `aggregate_id` is the account's id.
 */
export const ApiAccessChanged = accountEnvelope(
  API_ACCESS_CHANGED,
  t.type({
    /** Whom this e-mail goes to. */
    email: t.string,
    account_name: t.string,
    /** The account's API access after the change. */
    enabled: t.boolean,
  }),
);
export type ApiAccessChanged = t.TypeOf<typeof ApiAccessChanged>;

/** Every event auth publishes, discriminated by `type`. */
export const AccountEvent = t.union([
  PasswordResetRequested,
  PasswordChangedNotice,
  UserInvited,
  InvitationAccepted,
  AccessChanged,
  ApiAccessChanged,
  AppChanged,
  TokenRevoked,
  SigningKeysWithdrawn,
]);
export type AccountEvent = t.TypeOf<typeof AccountEvent>;
