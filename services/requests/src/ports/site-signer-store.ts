import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { SiteSignerChange, StoredSiteSigner } from '../domain/signer.js';
import type { PageOf, PageRequest } from './page.js';

/** A Site's signers, read and upserted on their own (ADR 3200); a create upserts them too. */
export interface SiteSignerStore {
  /**
   * The Site's signers by `signer_id`, one page; with `search`, only those whose
   * `signer_id`, e-mail address or mobile number holds it, in any case.
   */
  readonly list: (
    siteId: number,
    page: PageRequest,
    search?: string,
  ) => TE.TaskEither<never, PageOf<StoredSiteSigner>>;
  readonly get: (siteId: number, signerId: string) => TE.TaskEither<never, O.Option<StoredSiteSigner>>;
  /**
   * Creates the signer, or updates it as the change says (a detail set, removed or kept),
   * in one statement; an unchanged record is not rewritten. `created`: it did not exist.
   */
  readonly upsert: (
    change: SiteSignerChange,
  ) => TE.TaskEither<never, { readonly signer: StoredSiteSigner; readonly created: boolean }>;
  /**
   * Deletes the signer unless a Request names it, all in one statement; `in_use` then,
   * whatever a create running beside it does (the foreign key decides).
   */
  readonly remove: (
    siteId: number,
    signerId: string,
  ) => TE.TaskEither<never, 'deleted' | 'missing' | 'in_use'>;
}
