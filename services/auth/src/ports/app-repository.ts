import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AppChanged, PageOf, PageRequest } from '@esign/contracts';
import type { DeveloperApp } from '../domain/model.js';

/** What the client-credentials grant weighs about a client. */
export interface ClientRecord {
  readonly app: DeveloperApp;
  readonly secretFingerprint: Uint8Array | null;
  readonly ownerDisabled: boolean;
  readonly apiAccess: boolean;
}

/** Developer Apps. Deleted apps are invisible to every read. */
export interface AppRepository {
  readonly create: (app: DeveloperApp) => TE.TaskEither<never, DeveloperApp>;
  readonly find: (id: string) => TE.TaskEither<never, O.Option<DeveloperApp>>;
  readonly findClient: (id: string) => TE.TaskEither<never, O.Option<ClientRecord>>;
  readonly listByUser: (userId: string, page: PageRequest) => TE.TaskEither<never, PageOf<DeveloperApp>>;
  readonly list: (filter: { readonly userId?: string }) => TE.TaskEither<never, DeveloperApp[]>;
  readonly setClientSecret: (
    id: string,
    fingerprint: Uint8Array | null,
    at: Date,
  ) => TE.TaskEither<never, void>;
  /** Sets or (null) removes the callback URL of the authorization-code grant. */
  readonly setCallbackUrl: (
    id: string,
    callbackUrl: string | null,
  ) => TE.TaskEither<never, O.Option<DeveloperApp>>;
  /**
   * Suspends the app at `disabledAt`, or restores it (null); asking for what it already is
   * changes nothing (a suspended app keeps its first time). None: no such app.
   */
  readonly setDisabled: (
    id: string,
    disabledAt: Date | null,
    /** Written in the same transaction, only when the app changes (ADR 3120). */
    notices?: readonly AppChanged[],
  ) => TE.TaskEither<never, O.Option<DeveloperApp>>;
  /**
   * Deletes the app and revokes its tokens, in one transaction, with `notices` when it
   * deletes it (ADR 3120).
   */
  readonly remove: (id: string, at: Date, notices?: readonly AppChanged[]) => TE.TaskEither<never, void>;
}
