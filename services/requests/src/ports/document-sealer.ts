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
 * The seal cannot be made now, for a reason outside the document: its task rejects with
 * it (the message says why), downloads answer 503, and a later try seals again.
 */
export class SealUnavailable extends Error {
  override readonly name: string = 'SealUnavailable';
}

/** The configured time-stamp authority did not answer with a token: a provider outage. */
export class TimestampUnavailable extends SealUnavailable {
  override readonly name = 'TimestampUnavailable';
}

/**
 * The seal's certificate is not valid at the signing time (expired, or not yet valid): a
 * seal made with it would not validate, so none is made until an operator configures
 * another certificate.
 */
export class SealCertificateOutOfDate extends SealUnavailable {
  override readonly name = 'SealCertificateOutOfDate';
}

/** Signs a finished PDF as PAdES (an incremental update with a CAdES detached signature). */
export interface DocumentSealer {
  readonly seal: (pdf: Uint8Array, details: SealDetails) => TE.TaskEither<never, Seal>;
  /** When the signer's certificate is valid, where the sealer knows it. */
  readonly validity?: CertificateValidity;
}

export interface CertificateValidity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}
