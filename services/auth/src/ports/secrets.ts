/** Randomness and one-way fingerprints of high-entropy secrets (session credentials, client secrets). */
export interface Secrets {
  readonly uuid: () => string;
  /** A fresh 256-bit secret, base64url, after `prefix` (which says what it is when it turns up in a log). */
  readonly newSecret: (prefix: string) => string;
  /** A one-way fingerprint to store in place of the secret. */
  readonly fingerprint: (secret: string) => Uint8Array;
  /** RFC 7636 S256: the base64url of the SHA-256 of the verifier, as ASCII bytes. */
  readonly pkceChallenge: (verifier: string) => Uint8Array;
  /** Constant-time comparison of two fingerprints. */
  readonly same: (a: Uint8Array, b: Uint8Array) => boolean;
}
