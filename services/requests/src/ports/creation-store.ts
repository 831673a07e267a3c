import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainEvent } from '@esign/contracts';
import type { TemplateSpec } from '../domain/contract-template.js';
import type { Challenge } from '../domain/signer-authentication.js';
import type { SignatureRequest } from '../domain/signature-request.js';
import type { Contact, SiteSigner } from '../domain/signer.js';

/** What a create reads before it decides (see `createSignatureRequest`). */
export interface CreationInputs {
  /** The site's templates among those named (any state); ids of other sites are simply absent. */
  readonly templates: readonly TemplateSpec[];
  /** What the site already knows of the signers named, by signer_id. */
  readonly storedContacts: ReadonlyMap<string, Contact>;
}

/** Everything a create writes. */
export interface CreatedRequest {
  /** The site's signers as they are after this call (created or updated). */
  readonly siteSigners: readonly SiteSigner[];
  readonly request: SignatureRequest;
  readonly challenges: readonly { readonly signerRef: string; readonly challenge: Challenge }[];
  /** Written to the outbox, in the same transaction. */
  readonly events: readonly DomainEvent[];
}

/**
 * The create of a Request in two round trips (ADR 2610): one read, one write. The
 * single-purpose operations of the other ports stay for every other caller.
 */
export interface CreationStore {
  readonly inputs: (
    siteId: number,
    templateIds: readonly number[],
    signerIds: readonly string[],
  ) => TE.TaskEither<never, CreationInputs>;
  /**
   * Upserts the site's signers, inserts the Request with its children and its signers'
   * challenges, and appends its events, all or nothing.
   */
  readonly insert: (created: CreatedRequest) => TE.TaskEither<never, void>;
}
