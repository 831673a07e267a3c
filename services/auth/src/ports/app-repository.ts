import type { PageOf, PageRequest } from '@esign/contracts';
import type * as T from 'fp-ts/lib/Task.js';
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
  readonly create: (app: DeveloperApp) => T.Task<DeveloperApp>;
  readonly find: (id: string) => T.Task<DeveloperApp | undefined>;
  readonly findClient: (id: string) => T.Task<ClientRecord | undefined>;
  readonly listByUser: (userId: string, page: PageRequest) => T.Task<PageOf<DeveloperApp>>;
  readonly list: (filter: { readonly userId?: string }) => T.Task<DeveloperApp[]>;
  readonly setClientSecret: (id: string, fingerprint: Uint8Array | null, at: Date) => T.Task<void>;
  /** Sets or (null) removes the callback URL of the authorization-code grant. */
  readonly setCallbackUrl: (id: string, callbackUrl: string | null) => T.Task<DeveloperApp | undefined>;
  readonly setDisabled: (id: string, disabledAt: Date | null) => T.Task<DeveloperApp | undefined>;
  /** Deletes the app and revokes its tokens, in one transaction. */
  readonly remove: (id: string, at: Date) => T.Task<void>;
}
