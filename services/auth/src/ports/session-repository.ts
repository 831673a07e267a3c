import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { IntrospectionSubject } from '../domain/tokens.js';

export interface SessionRecord {
  readonly id: string;
  readonly userId: string;
  readonly accountId: string;
  readonly email: string;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly userDisabled: boolean;
  readonly apiAccess: boolean;
  readonly accountAdmin: boolean;
  /** When its use was last written down (ADR 3110); null for a session begun before. */
  readonly lastActiveAt: Date | null;
}

/** One of a user's sessions as they see it in the list (ADR 3100): never its credential. */
export interface SessionSummary {
  readonly id: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly clientAddress: string | null;
  readonly userAgent: string | null;
  /** When it was last used, to the minute (ADR 3110); null for a session begun before. */
  readonly lastActiveAt: Date | null;
}

/** What introspection weighs about a session's access token, and when the session was last used. */
export interface SessionIntrospectionSubject extends IntrospectionSubject {
  readonly lastActiveAt: Date | null;
}

/** Self-service sessions, found by the fingerprint of their credential. */
export interface SessionRepository {
  readonly create: (session: {
    readonly id: string;
    readonly userId: string;
    readonly fingerprint: Uint8Array;
    readonly createdAt: Date;
    readonly expiresAt: Date;
    /** Where it signed in from (ADR 3100). Its last activity is `createdAt` (ADR 3110). */
    readonly clientAddress: string | null;
    readonly userAgent: string | null;
  }) => TE.TaskEither<never, void>;
  readonly findByFingerprint: (fingerprint: Uint8Array) => TE.TaskEither<never, O.Option<SessionRecord>>;
  readonly revoke: (id: string, at: Date) => TE.TaskEither<never, void>;
  /**
   * What introspection weighs about an access token exchanged for session `id` and
   * signed with `kid`: it lives as long as the session, and reaches the user's Sites now.
   */
  readonly introspectionSubject: (
    id: string,
    kid: string,
  ) => TE.TaskEither<never, O.Option<SessionIntrospectionSubject>>;
  /**
   * Writes `at` as session `id`'s last activity, unless the one written is less than
   * `everySeconds` before `at` (ADR 3110): one guarded UPDATE, so uses at the same moment
   * on any replica write at most once. Whether it wrote.
   */
  readonly recordActivity: (id: string, at: Date, everySeconds: number) => TE.TaskEither<never, boolean>;
  readonly revokeAllOf: (userId: string, at: Date) => TE.TaskEither<never, void>;
  /** The user's sessions that have neither expired nor been revoked at `at`, newest first. */
  readonly listLive: (userId: string, at: Date) => TE.TaskEither<never, SessionSummary[]>;
  /**
   * Ends the user's session `id` at `at`. 'ended' also when it had already ended: the
   * outcome is the same. 'unknown': the user has no such session (another user's included).
   */
  readonly endOwn: (userId: string, id: string, at: Date) => TE.TaskEither<never, 'ended' | 'unknown'>;
  /** Ends every live session of the user but `keepId`; how many it ended. */
  readonly endOthers: (userId: string, keepId: string, at: Date) => TE.TaskEither<never, number>;
}
