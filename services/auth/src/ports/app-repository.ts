import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { PageOf, PageRequest } from '@esign/contracts';
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
  readonly setDisabled: (id: string, disabledAt: Date | null) => TE.TaskEither<never, O.Option<DeveloperApp>>;
  /** Deletes the app and revokes its tokens, in one transaction. */
  readonly remove: (id: string, at: Date) => TE.TaskEither<never, void>;
}
