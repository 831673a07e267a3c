import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AcceptedUpload } from '../domain/attachments.js';

/** A file a signer uploaded for one of their attachment fields (ADR 3920), without its bytes. */
export interface KeptAttachment {
  readonly fieldName: string;
  readonly fileName: string;
  readonly contentType: AcceptedUpload['contentType'];
  readonly size: number;
  /** SHA-256 of its bytes, hex. */
  readonly sha256: string;
  readonly keptAt: string;
}

/** The signers' uploaded files: one per signer and field, a later one replacing it. */
export interface AttachmentStore {
  readonly keep: (
    requestId: string,
    signerRef: string,
    fieldName: string,
    upload: AcceptedUpload,
    at: string,
  ) => TE.TaskEither<never, void>;
  /** What one signer has uploaded for the Request so far. */
  readonly keptBy: (requestId: string, signerRef: string) => TE.TaskEither<never, readonly KeptAttachment[]>;
  /** One signer's file for one field, with its bytes. */
  readonly file: (
    requestId: string,
    signerRef: string,
    fieldName: string,
  ) => TE.TaskEither<never, O.Option<KeptAttachment & { readonly content: Uint8Array }>>;
}
