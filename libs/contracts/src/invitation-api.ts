import * as t from 'io-ts';
import { Page } from './paging.js';
import { PasswordInput } from './auth-api.js';
import { boundedArray, boundedString, Email, nullable, PositiveInt, refine, strict } from './primitives.js';

// Account admins invite people to their account by e-mail (ADR 3030): the invitee follows
// a single-use link, chooses a password and becomes a user of the account, on the Sites
// the admin chose.

/** How long an invitation's link works (ADR 3030). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

/** The Sites an invitation adds its user to: the account's own, none named twice; empty for none yet. */
export const InvitationSiteIds = refine(
  boundedArray(PositiveInt, 100, 'InvitationSiteIdList'),
  (ids): ids is number[] => new Set(ids).size === ids.length,
  () => 'must not name a Site twice',
  'InvitationSiteIds',
);

/**
 * `POST /v1.1/account/invitations`: e-mail a link to join the account to this address.
 * Inviting an address again replaces its open invitation (a new link, the old one dead).
 * `admin: true` makes the invitee an admin of the account when they accept (ADR 3090).
 */
export const CreateInvitationBody = strict(
  { email: Email },
  { site_ids: InvitationSiteIds, admin: t.boolean },
  'CreateInvitationBody',
);
export type CreateInvitationBody = t.TypeOf<typeof CreateInvitationBody>;

/** An open invitation, as an account admin sees it (never its link). */
export const InvitationView = t.type({
  id: t.string,
  email: t.string,
  site_ids: t.array(t.number),
  /** Whether accepting it makes an admin of the account (ADR 3090). */
  admin: t.boolean,
  /** The admin who sent it; null once that user is gone. */
  invited_by: nullable(t.string),
  created_at: t.string,
  expires_at: t.string,
});
export type InvitationView = t.TypeOf<typeof InvitationView>;
export const InvitationList = Page(InvitationView);
export type InvitationList = t.TypeOf<typeof InvitationList>;

/** `POST /v1.1/invitations/accept`: the link's token and the new user's password. */
export const AcceptInvitationBody = strict(
  { token: boundedString(1, 200), password: PasswordInput },
  {},
  'AcceptInvitationBody',
);
export type AcceptInvitationBody = t.TypeOf<typeof AcceptInvitationBody>;

/** The user an accepted invitation made: they sign in with `email` and the password they chose. */
export const InvitationAcceptedView = t.type({
  /** `admin`: whether they are an admin of the account (ADR 3090). */
  user: t.type({ id: t.string, email: t.string, admin: t.boolean }),
  account: t.type({ id: t.string, name: t.string }),
  site_ids: t.array(t.number),
});
export type InvitationAcceptedView = t.TypeOf<typeof InvitationAcceptedView>;
