/** Hashes the secrets signers type (access codes, one-time codes) and compares them in constant time. */
export interface CodeHasher {
  readonly hash: (code: string) => () => Promise<string>;
  readonly verify: (code: string, encoded: string) => () => Promise<boolean>;
}
