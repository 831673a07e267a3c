import { activeAdmin } from './account-users.js';
import type { User } from './model.js';

/** What accepting an invitation weighs about it (ADR 3030, ADR 3090). */
export interface InvitationTerms {
  /** Whether accepting makes an admin of the account. */
  readonly admin: boolean;
  /** The inviting admin's user id; null once that user is gone. */
  readonly invitedBy: string | null;
}

/**
 * Whether an open invitation still works. One that makes an admin works only while the
 * admin who sent it is still an enabled admin of the account: disabling or demoting an
 * admin whose session was misused also stops the admins it invited (ADR 3090). One that
 * makes a member works whoever sent it, as before.
 */
export const invitationWorks = (invitation: { readonly admin: boolean }, inviterIsAdmin: boolean): boolean =>
  !invitation.admin || inviterIsAdmin;

/** Whether `users` (the account's, as they are) hold the invitation's sender as an enabled admin. */
export const inviterIsAdmin = (terms: InvitationTerms, users: readonly User[]): boolean =>
  users.some((u) => u.id === terms.invitedBy && activeAdmin(u));

/** Who hears of an accepted invitation (ADR 3030, ADR 3090), by address. */
export interface AcceptanceAudience {
  /** The inviting admin, while they are an enabled user: "<address> joined". */
  readonly inviter: string | null;
  /**
   * When the invitation made an admin: every other enabled admin (`told`), so an admin let
   * in by a misused session does not go unnoticed (as when an admin is made, ADR 3060), and
   * who invited them (`by`). Null for a member's invitation.
   */
  readonly joinedAsAdmin: { readonly by: string; readonly told: readonly string[] } | null;
}

/** Whom to tell that the invitation was accepted, given the account's users before it. */
export const acceptanceAudience = (terms: InvitationTerms, users: readonly User[]): AcceptanceAudience => {
  const inviter = users.find((u) => u.id === terms.invitedBy);
  const told = users.filter((u) => activeAdmin(u) && u.id !== terms.invitedBy).map((u) => u.email);
  return {
    inviter: inviter !== undefined && inviter.disabledAt === null ? inviter.email : null,
    joinedAsAdmin: terms.admin && inviter !== undefined ? { by: inviter.email, told } : null,
  };
};
