import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AccountEvent, UserInvited } from '@esign/contracts';
import type { AuthError } from '../domain/errors.js';
import type { InvitationTerms } from '../domain/invitations.js';
import type { User } from '../domain/model.js';

/** An invitation to join an account as it is kept: the fingerprint of its token, never the token. */
export interface NewInvitation {
  readonly id: string;
  readonly accountId: string;
  /** Lower-case. */
  readonly email: string;
  readonly siteIds: readonly number[];
  /** Whether accepting makes an admin of the account (ADR 3090). */
  readonly admin: boolean;
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
  /** Whether accepting makes an admin of the account (ADR 3090). */
  readonly admin: boolean;
  /** The inviting admin's e-mail address; null once that user is gone. */
  readonly invitedBy: string | null;
  /** Whether the inviting admin is still an enabled admin of the account (`invitationWorks`). */
  readonly inviterIsAdmin: boolean;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** The user an accepted invitation made. */
export interface AcceptedInvitation {
  readonly user: { readonly id: string; readonly email: string; readonly admin: boolean };
  readonly account: { readonly id: string; readonly name: string };
  /** The Sites the user was added to: the invitation's that still are the account's. */
  readonly siteIds: readonly number[];
}

/** What accepting an invitation needs to know of it before writing anything. */
export interface OpenInvitation {
  readonly id: string;
  readonly email: string;
  readonly admin: boolean;
  /** Whether the inviting admin is still an enabled admin of the account (`invitationWorks`). */
  readonly inviterIsAdmin: boolean;
}

/** An open invitation as accepting it finds it, under the account's lock, with the account's users. */
export interface Acceptance {
  readonly invitation: InvitationTerms & {
    readonly id: string;
    readonly email: string;
    readonly accountName: string;
  };
  /** Every user of the account, before the new one. */
  readonly users: readonly User[];
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
   * against) and what decides whether it still works, before anything is written.
   */
  readonly findOpen: (tokenHash: Uint8Array, at: Date) => TE.TaskEither<never, O.Option<OpenInvitation>>;
  /**
   * In one transaction: if the invitation is still open at `at`, locks its account and
   * asks `decide`, given the invitation and the account's users. When `decide` answers
   * Some (the invitation works), makes its user (an admin if the invitation says so) with
   * `passwordHash`, adds them to its Sites that are still the account's, ends it
   * ('accepted') and writes the events `decide` answered to the outbox. None when it was
   * not open or `decide` answered None (nothing is written); EmailTaken when a user has the
   * address (nothing is made, the invitation stays open).
   */
  readonly accept: (
    tokenHash: Uint8Array,
    user: { readonly id: string; readonly passwordHash: string },
    at: Date,
    decide: (acceptance: Acceptance) => O.Option<readonly AccountEvent[]>,
  ) => TE.TaskEither<AuthError, O.Option<AcceptedInvitation>>;
}
