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
}

/** Self-service sessions, found by the fingerprint of their credential. */
export interface SessionRepository {
  readonly create: (session: {
    readonly id: string;
    readonly userId: string;
    readonly fingerprint: Uint8Array;
    readonly createdAt: Date;
    readonly expiresAt: Date;
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
  ) => TE.TaskEither<never, O.Option<IntrospectionSubject>>;
  readonly revokeAllOf: (userId: string, at: Date) => TE.TaskEither<never, void>;
}
