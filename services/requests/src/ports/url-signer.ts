/**
 * Signs and verifies what an Execution URL names (a Request and one of its signers), so
 * a signer page can trust `r` and `s` without a session. Verification is constant-time
 * and accepts every configured key, so a secret can rotate without breaking URLs already sent.
 */
export interface UrlSigner {
  readonly sign: (requestId: string, signerRef: string) => string;
  readonly verify: (requestId: string, signerRef: string, signature: string) => boolean;
}
