import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { PageOf, PageRequest, TokenRevoked } from '@esign/contracts';
import type { TokenRecord } from '../domain/model.js';
import type { IntrospectionSubject } from '../domain/tokens.js';

export interface TokenFilter {
  readonly userId?: string;
  readonly appId?: string;
}

/** Access token records (never the tokens themselves). */
export interface TokenRepository {
  readonly insert: (token: TokenRecord) => TE.TaskEither<never, void>;
  readonly find: (id: string) => TE.TaskEither<never, O.Option<TokenRecord>>;
  /** Newest first. */
  readonly list: (filter: TokenFilter, page: PageRequest) => TE.TaskEither<never, PageOf<TokenRecord>>;
  /**
   * Marks the token revoked unless it already is; answers the record as it now stands.
   * `notices` go to the outbox with it, only when this call revoked it (ADR 3120).
   */
  readonly revoke: (
    id: string,
    at: Date,
    notices?: readonly TokenRevoked[],
  ) => TE.TaskEither<never, O.Option<TokenRecord>>;
  /** The token, its user, app, account and signing key, and the user's sites now: one read. */
  readonly introspectionSubject: (id: string) => TE.TaskEither<never, O.Option<IntrospectionSubject>>;
}

/** Notes that a token was used; cheap, buffered, written in batches. */
export interface TokenUsageRecorder {
  readonly record: (tokenId: string, at: Date) => void;
}
