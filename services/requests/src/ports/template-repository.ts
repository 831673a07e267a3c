import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type {
  ContractTemplate,
  NewTemplate,
  TemplateSpec,
  TemplateState,
  TemplateWithHtml,
} from '../domain/contract-template.js';
import type { PageOf, PageRequest } from './page.js';

/** A template's spec with its document: HTML text, or the PDF file as uploaded. */
export interface TemplateDocument {
  readonly spec: TemplateSpec;
  readonly sha256: string;
  readonly html: string | null;
  readonly pdf: Uint8Array | null;
}

/** A list's filters: absent, any. */
export interface TemplateFilter {
  readonly state?: TemplateState | undefined;
  /** `true`: only archived templates; `false`: only those that are not. */
  readonly archived?: boolean | undefined;
  /** Part of the name, in any case (ADR 3360). */
  readonly search?: string | undefined;
}

/** Contract templates. Every read is scoped by the sites the caller reaches. */
export interface TemplateRepository {
  readonly insert: (template: NewTemplate, pdf: Uint8Array | null) => TE.TaskEither<never, TemplateWithHtml>;
  /** A template no one deleted (ADR 3430); a deleted one reads as absent. */
  readonly find: (id: number, siteIds: readonly number[]) => TE.TaskEither<never, O.Option<TemplateWithHtml>>;
  /** Like `find`, holding the row until the transaction ends. */
  readonly lock: (id: number, siteIds: readonly number[]) => TE.TaskEither<never, O.Option<TemplateWithHtml>>;
  readonly markPublished: (template: ContractTemplate) => TE.TaskEither<never, void>;
  /** A published template's `archivedAt` written as the domain set it (ADR 3250). */
  readonly markArchived: (template: ContractTemplate) => TE.TaskEither<never, void>;
  /** A draft template's content replaced (ADR 3240), under a lock the caller holds. */
  readonly replace: (
    id: number,
    template: NewTemplate,
    pdf: Uint8Array | null,
  ) => TE.TaskEither<never, TemplateWithHtml>;
  /** A draft template forgotten (ADR 3240), under a lock the caller holds. */
  readonly remove: (id: number) => TE.TaskEither<never, void>;
  /**
   * A published template's `deletedAt` written as the domain set it (ADR 3430), under a lock
   * the caller holds: from then on `find`, `lock` and `list` leave it out, while `specs` and
   * `documents`, which serve the Requests made with it, still read it.
   */
  readonly markDeleted: (template: ContractTemplate) => TE.TaskEither<never, void>;
  readonly list: (
    siteId: number,
    page: PageRequest,
    filter: TemplateFilter,
  ) => TE.TaskEither<never, PageOf<ContractTemplate>>;
  /**
   * The documents of the site's templates among `ids` (HTML text or PDF bytes), for the
   * signer pages and the executed document; ids of other sites are simply absent.
   */
  readonly documents: (
    siteId: number,
    ids: readonly number[],
  ) => TE.TaskEither<never, readonly TemplateDocument[]>;
  /**
   * The site's templates among `ids` (any state, deleted ones too: `unusableForRequests`
   * tells a new Request why not), in no particular order: a caller that
   * needs a Request's order puts them in it. Ids of other sites are simply absent.
   */
  readonly specs: (siteId: number, ids: readonly number[]) => TE.TaskEither<never, readonly TemplateSpec[]>;
}
