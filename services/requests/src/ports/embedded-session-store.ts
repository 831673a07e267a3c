import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { EmbeddedSession } from '../domain/embedded-signing.js';

/** Embedded signing URLs (ADR 2300), kept by the SHA-256 of their token. */
export interface EmbeddedSessionStore {
  readonly insert: (session: EmbeddedSession, tokenSha256: string) => TE.TaskEither<never, void>;
  /**
   * Claims the URL for this opening if it was never opened and has not expired at `now`
   * (one conditional update); answers the session and whether this call claimed it.
   */
  readonly claim: (
    tokenSha256: string,
    now: string,
  ) => TE.TaskEither<never, O.Option<{ readonly session: EmbeddedSession; readonly claimed: boolean }>>;
  readonly find: (id: string) => TE.TaskEither<never, O.Option<EmbeddedSession>>;
}

/** The URL's secret: fresh random tokens and their digests. */
export interface EmbeddedTokens {
  readonly fresh: () => string;
  readonly digest: (token: string) => string;
  readonly sessionId: () => string;
}
