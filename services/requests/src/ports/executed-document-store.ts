import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';

/** An executed document as sealed and kept: these bytes are served on every download. */
export interface StoredExecutedDocument {
  readonly requestId: string;
  readonly pdf: Uint8Array;
  /** SHA-256 (hex) of `pdf`. */
  readonly sha256: string;
  readonly certificateSha256: string;
  readonly signedAt: string;
  readonly timestampedAt: string | null;
}

/** The executed documents, one per completed Request, written once and never changed. */
export interface ExecutedDocumentStore {
  readonly find: (requestId: string) => TE.TaskEither<never, O.Option<StoredExecutedDocument>>;
  /** The document whose bytes hash to `sha256`, when this service issued one. */
  readonly findBySha256: (sha256: string) => TE.TaskEither<never, O.Option<StoredExecutedDocument>>;
  /**
   * Keeps `document` unless the Request has one already (another replica built it at the
   * same moment); answers the one kept, so every caller serves the same bytes.
   */
  readonly insertOnce: (document: StoredExecutedDocument) => TE.TaskEither<never, StoredExecutedDocument>;
  /**
   * Claims up to `limit` completed Requests whose document is due to be issued (ADR 2920),
   * the most recently due first, and holds them for `leaseMs` (ADR 2930): a replica
   * claiming at the same moment is handed other ones, and a claim whose issuer died falls
   * due again when its lease runs out. A Request leaves the queue once a document is kept.
   */
  readonly claim: (limit: number, leaseMs: number) => TE.TaskEither<never, readonly QueuedIssue[]>;
  /** A failed issue is tried again `retryInMs` from now, by the database's clock. */
  readonly postpone: (requestId: string, reason: string, retryInMs: number) => TE.TaskEither<never, void>;
  /** How long until the next queued issue is due (null: none queued; 0 or less: due now). */
  readonly nextDueInMs: () => TE.TaskEither<never, number | null>;
}

/** A Request waiting for its executed document, and how often issuing it failed so far. */
export interface QueuedIssue {
  readonly requestId: string;
  readonly attempts: number;
}
