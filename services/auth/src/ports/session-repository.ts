import type * as T from 'fp-ts/lib/Task.js';

export interface SessionRecord {
  readonly id: string;
  readonly userId: string;
  readonly accountId: string;
  readonly email: string;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly userDisabled: boolean;
  readonly apiAccess: boolean;
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
  readonly revokeAllOf: (userId: string, at: Date) => T.Task<void>;
}
