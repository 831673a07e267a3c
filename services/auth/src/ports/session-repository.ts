import type * as T from 'fp-ts/lib/Task.js';
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
  }) => T.Task<void>;
  readonly findByFingerprint: (fingerprint: Uint8Array) => T.Task<SessionRecord | undefined>;
  readonly revoke: (id: string, at: Date) => T.Task<void>;
  /**
   * What introspection weighs about an access token exchanged for session `id` and
   * signed with `kid`: it lives as long as the session, and reaches the user's Sites now.
   */
  readonly introspectionSubject: (id: string, kid: string) => T.Task<IntrospectionSubject | undefined>;
  readonly revokeAllOf: (userId: string, at: Date) => T.Task<void>;
}
