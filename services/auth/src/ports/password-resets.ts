import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { PasswordChangedNotice, PasswordResetRequested } from '@esign/contracts';
import type { PasswordChanged } from './account-repository.js';

/** A link to choose a new password, as it is kept: the fingerprint of its token, never the token. */
export interface NewPasswordReset {
  readonly id: string;
  readonly userId: string;
  readonly tokenHash: Uint8Array;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** Links to choose a new password (ADR 3000), with the event that has one e-mailed. */
export interface PasswordResetStore {
  /**
   * In one transaction: unless the user was sent `maxPerHour` links in the hour before
   * `reset.createdAt` ('too_many'), ends their open links, keeps this one and writes
   * `event` to the outbox.
   */
  readonly issue: (
    reset: NewPasswordReset,
    event: PasswordResetRequested,
    maxPerHour: number,
  ) => TE.TaskEither<never, 'issued' | 'too_many'>;
  /** The user of an open link at `at`: its e-mail address, to check the new password against. */
  readonly findOpen: (
    tokenHash: Uint8Array,
    at: Date,
  ) => TE.TaskEither<never, O.Option<{ readonly userId: string; readonly email: string }>>;
  /**
   * In one transaction: ends the link if it is still open at `at`, then changes the
   * password as `AccountRepository.changePassword` does. None when the link was not open.
   */
  readonly redeem: (
    tokenHash: Uint8Array,
    passwordHash: string,
    at: Date,
    notice: PasswordChangedNotice,
  ) => TE.TaskEither<never, O.Option<PasswordChanged>>;
}
