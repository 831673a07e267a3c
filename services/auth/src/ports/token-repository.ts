import type { PageOf, PageRequest } from '@esign/contracts';
import type * as T from 'fp-ts/lib/Task.js';
import type { TokenRecord } from '../domain/model.js';
import type { IntrospectionSubject } from '../domain/tokens.js';

export interface TokenFilter {
  readonly userId?: string;
  readonly appId?: string;
}

/** Access token records (never the tokens themselves). */
export interface TokenRepository {
  readonly insert: (token: TokenRecord) => T.Task<void>;
  readonly find: (id: string) => T.Task<TokenRecord | undefined>;
  /** Newest first. */
  readonly list: (filter: TokenFilter, page: PageRequest) => T.Task<PageOf<TokenRecord>>;
  /** Marks the token revoked unless it already is; answers the record as it now stands. */
  readonly revoke: (id: string, at: Date) => T.Task<TokenRecord | undefined>;
  /** The token, its user, app, account and signing key, and the user's sites now: one read. */
  readonly introspectionSubject: (id: string) => T.Task<IntrospectionSubject | undefined>;
}

/** Notes that a token was used; cheap, buffered, written in batches. */
export interface TokenUsageRecorder {
  readonly record: (tokenId: string, at: Date) => void;
}
