import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { InvitationAccepted, UserInvited } from '@esign/contracts';
import type { AuthError } from '../domain/errors.js';

/** An invitation to join an account as it is kept: the fingerprint of its token, never the token. */
export interface NewInvitation {
  readonly id: string;
  readonly accountId: string;
  /** Lower-case. */
  readonly email: string;
  readonly siteIds: readonly number[];
  /** The inviting admin's user id. */
  readonly invitedBy: string;
  readonly tokenHash: Uint8Array;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** An open invitation, as an account admin sees it. */
export interface Invitation {
  readonly id: string;
  readonly email: string;
  readonly siteIds: readonly number[];
  /** The inviting admin's e-mail address; null once that user is gone. */
  readonly invitedBy: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** The user an accepted invitation made. */
export interface AcceptedInvitation {
  readonly user: { readonly id: string; readonly email: string };
  readonly account: { readonly id: string; readonly name: string };
  /** The Sites the user was added to: the invitation's that still are the account's. */
  readonly siteIds: readonly number[];
}

/** What accepting an invitation needs to know of it before writing anything. */
export interface OpenInvitation {
  readonly id: string;
  readonly email: string;
  readonly accountName: string;
  readonly inviterEmail: string | null;
}

/** Invitations to join an account (ADR 3030), with the event that has each e-mailed. */
export interface InvitationStore {
  /**
   * In one transaction: unless the account made `maxPerHour` invitations in the hour before
   * `invitation.createdAt` (`tooManyUntil`: when the oldest of them leaves the hour), ends
   * the address's open invitation to the account ('replaced'), keeps this one and writes
   * `event` to the outbox.
   */
  readonly issue: (
    invitation: NewInvitation,
    event: UserInvited,
    maxPerHour: number,
  ) => TE.TaskEither<never, { readonly issued: Invitation } | { readonly tooManyUntil: Date }>;
  /** The account's invitations open at `at`, newest first. */
  readonly listOpen: (accountId: string, at: Date) => TE.TaskEither<never, Invitation[]>;
  /**
   * Ends the account's invitation `id` ('revoked') if it is open at `at`. 'unknown': the
   * account has no such invitation, open or not.
   */
  readonly revoke: (
    accountId: string,
    id: string,
    at: Date,
  ) => TE.TaskEither<never, 'revoked' | 'not_open' | 'unknown'>;
  /**
   * The invitation open at `at` with this token: its address (to check the password
   * against), its account's name, and the inviting admin's address while they are a user
   * who can be told (not disabled), else null.
   */
  readonly findOpen: (tokenHash: Uint8Array, at: Date) => TE.TaskEither<never, O.Option<OpenInvitation>>;
  /**
   * In one transaction: if the invitation is still open at `at`, makes its user (not an
   * admin) with `passwordHash`, adds them to its Sites that are still the account's and
   * ends it ('accepted'), writing `notice` (the inviter told) to the outbox when given.
   * None when it was not open; EmailTaken when a user has the address (nothing is made, the
   * invitation stays open).
   */
  readonly accept: (
    tokenHash: Uint8Array,
    user: { readonly id: string; readonly passwordHash: string },
    at: Date,
    notice?: InvitationAccepted,
  ) => TE.TaskEither<AuthError, O.Option<AcceptedInvitation>>;
}
