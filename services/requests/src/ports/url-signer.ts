/**
 * Signs and verifies what an Execution URL names (a Request, one of its signers, and the
 * version of that signer's link), so a signer page can trust `r` and `s` without a
 * session. Verification is constant-time and accepts every configured key, so a secret
 * can rotate without breaking URLs already sent.
 */
export interface UrlSigner {
  /** The `signature` parameter for this link; version 0 (the default) is the link the send issued. */
  readonly sign: (requestId: string, signerRef: string, version?: number) => string;
  /** Whether the signature is ours for this Request and signer (for the version it names). */
  readonly verify: (requestId: string, signerRef: string, signature: string) => boolean;
  /** The link version a signature names; read only after `verify` accepted it. */
  readonly versionOf: (signature: string) => number;
}
