import type * as T from 'fp-ts/lib/Task.js';
import type { EmbeddedSession } from '../domain/embedded-signing.js';

/** Embedded signing URLs (ADR 2300), kept by the SHA-256 of their token. */
export interface EmbeddedSessionStore {
  readonly insert: (session: EmbeddedSession, tokenSha256: string) => T.Task<void>;
  /**
   * Claims the URL for this opening if it was never opened and has not expired at `now`
   * (one conditional update); answers the session and whether this call claimed it.
   */
  readonly claim: (
    tokenSha256: string,
    now: string,
  ) => T.Task<{ readonly session: EmbeddedSession; readonly claimed: boolean } | undefined>;
  readonly find: (id: string) => T.Task<EmbeddedSession | undefined>;
}

/** The URL's secret: fresh random tokens and their digests. */
export interface EmbeddedTokens {
  readonly fresh: () => string;
  readonly digest: (token: string) => string;
  readonly sessionId: () => string;
}
