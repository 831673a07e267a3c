import type * as TE from 'fp-ts/lib/TaskEither.js';

/** What the seal says about the document it signs (the PDF signature dictionary). */
export interface SealDetails {
  /** Why it is signed: shown by PDF readers, and names the Request. */
  readonly reason: string;
  /** The claimed signing time (`/M` and the CMS signing-time). */
  readonly signingTime: Date;
}

/** What a sealed document records about its seal. */
export interface Seal {
  readonly pdf: Uint8Array;
  /** SHA-256 (hex) of the DER of the certificate that signed it. */
  readonly certificateSha256: string;
  /** When the TSA's RFC 3161 token says the signature existed, when one was asked for. */
  readonly timestampedAt: string | null;
}

/** The configured time-stamp authority did not answer with a token: try again later. */
export interface TimestampUnavailable {
  readonly _tag: 'TimestampUnavailable';
  readonly reason: string;
}

/** Signs a finished PDF as PAdES (an incremental update with a CAdES detached signature). */
export interface DocumentSealer {
  readonly seal: (pdf: Uint8Array, details: SealDetails) => TE.TaskEither<TimestampUnavailable, Seal>;
}
