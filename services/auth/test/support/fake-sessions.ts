/* eslint-disable @typescript-eslint/require-await -- the fake implements async ports synchronously. */
import type { Account, Site, User } from '../../src/domain/model.js';
import type { SessionRecord, SessionRepository } from '../../src/ports/session-repository.js';
import type { StoredKey } from '../../src/ports/signing-keys.js';
import { maybe, task } from './port-task.js';

export interface FakeSession {
  readonly id: string;
  readonly userId: string;
  readonly fingerprint: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly clientAddress: string | null;
  readonly userAgent: string | null;
  readonly lastActiveAt: Date | null;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Sessions in memory, over the fake world's users, accounts, keys and memberships. */
export const fakeSessionRepository = (world: {
  readonly accounts: ReadonlyMap<string, Account>;
  readonly users: ReadonlyMap<string, User>;
  readonly sessions: Map<string, FakeSession>;
  readonly keys: ReadonlyMap<string, StoredKey>;
  readonly sitesOfUser: (userId: string) => Site[];
}): SessionRepository => {
  const { accounts, users, sessions, keys, sitesOfUser } = world;
  return {
    create: (s) =>
      task(
        async () =>
          void sessions.set(s.id, {
            id: s.id,
            userId: s.userId,
            fingerprint: hex(s.fingerprint),
            createdAt: s.createdAt,
            expiresAt: s.expiresAt,
            revokedAt: null,
            clientAddress: s.clientAddress,
            userAgent: s.userAgent,
            lastActiveAt: s.createdAt,
          }),
      ),
    findByFingerprint: (fingerprint) =>
      maybe(async (): Promise<SessionRecord | undefined> => {
        const s = [...sessions.values()].find((x) => x.fingerprint === hex(fingerprint));
        if (s === undefined) return undefined;
        const user = users.get(s.userId)!;
        return {
          id: s.id,
          userId: s.userId,
          accountId: user.accountId,
          email: user.email,
          expiresAt: s.expiresAt,
          revokedAt: s.revokedAt,
          userDisabled: user.disabledAt !== null,
          apiAccess: accounts.get(user.accountId)!.apiAccess,
          accountAdmin: user.accountAdmin,
          lastActiveAt: s.lastActiveAt,
        };
      }),
    introspectionSubject: (id, kid) =>
      maybe(async () => {
        const s = sessions.get(id);
        if (s === undefined) return undefined;
        const user = users.get(s.userId)!;
        return {
          tokenId: s.id,
          userId: s.userId,
          expiresAt: s.expiresAt,
          revokedAt: s.revokedAt,
          userDisabled: user.disabledAt !== null,
          appUnusable: false,
          apiAccess: accounts.get(user.accountId)!.apiAccess,
          keyRevoked: keys.get(kid) === undefined || keys.get(kid)!.revokedAt != null,
          sites: sitesOfUser(s.userId).map((x) => ({ id: x.id, name: x.name })),
          lastActiveAt: s.lastActiveAt,
        };
      }),
    recordActivity: (id, at, everySeconds) =>
      task(async () => {
        const s = sessions.get(id);
        const since = at.getTime() - everySeconds * 1000;
        if (s === undefined || (s.lastActiveAt !== null && s.lastActiveAt.getTime() >= since)) return false;
        sessions.set(id, { ...s, lastActiveAt: at });
        return true;
      }),
    revoke: (id, at) => task(async () => void sessions.set(id, { ...sessions.get(id)!, revokedAt: at })),
    revokeAllOf: (userId, at) =>
      task(async () => {
        for (const s of sessions.values())
          if (s.userId === userId && s.revokedAt === null) sessions.set(s.id, { ...s, revokedAt: at });
      }),
    listLive: (userId, at) =>
      task(async () =>
        [...sessions.values()]
          .filter((s) => s.userId === userId && s.revokedAt === null && s.expiresAt > at)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id))
          .map(({ id, createdAt, expiresAt, clientAddress, userAgent, lastActiveAt }) => ({
            id,
            createdAt,
            expiresAt,
            clientAddress,
            userAgent,
            lastActiveAt,
          })),
      ),
    endOwn: (userId, id, at) =>
      task(async () => {
        const s = sessions.get(id);
        if (s === undefined || s.userId !== userId) return 'unknown' as const;
        sessions.set(id, { ...s, revokedAt: s.revokedAt ?? at });
        return 'ended' as const;
      }),
    endOthers: (userId, keepId, at) =>
      task(async () => {
        let ended = 0;
        for (const s of sessions.values())
          if (s.userId === userId && s.id !== keepId && s.revokedAt === null && s.expiresAt > at) {
            sessions.set(s.id, { ...s, revokedAt: at });
            ended += 1;
          }
        return ended;
      }),
  };
};
