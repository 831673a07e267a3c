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

/**
 * The configured time-stamp authority did not answer with a token: a provider outage, so
 * the seal's task rejects with it (its message says why); a later try seals again.
 */
export class TimestampUnavailable extends Error {
  override readonly name = 'TimestampUnavailable';
}

/** Signs a finished PDF as PAdES (an incremental update with a CAdES detached signature). */
export interface DocumentSealer {
  readonly seal: (pdf: Uint8Array, details: SealDetails) => TE.TaskEither<never, Seal>;
}
