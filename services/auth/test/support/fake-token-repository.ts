/* eslint-disable @typescript-eslint/require-await -- the fakes implement async ports synchronously. */
import type { AccountEvent } from '@esign/contracts';
import type { Account, Site, TokenRecord, User } from '../../src/domain/model.js';
import type { StoredKey } from '../../src/ports/signing-keys.js';
import type { TokenRepository } from '../../src/ports/token-repository.js';
import type { FakeApp } from './fake-app-repository.js';
import { maybe, task } from './port-task.js';

/** Access tokens in the fake world's maps, introspected as the Postgres repository does. */
export const fakeTokenRepository = (world: {
  readonly accounts: ReadonlyMap<string, Account>;
  readonly users: ReadonlyMap<string, User>;
  readonly apps: ReadonlyMap<string, FakeApp>;
  readonly tokens: Map<string, TokenRecord>;
  readonly keys: ReadonlyMap<string, StoredKey>;
  readonly frameOriginsOf: ReadonlyMap<string, readonly string[]>;
  readonly sitesOfUser: (userId: string) => Site[];
  /** The events the outbox would have taken (ADR 3120). */
  readonly outbox?: AccountEvent[];
}): TokenRepository => {
  const { accounts, users, apps, tokens, keys, frameOriginsOf, sitesOfUser } = world;
  return {
    insert: (t) => task(async () => void tokens.set(t.id, t)),
    find: (id) => maybe(async () => tokens.get(id)),
    list: (filter, page) =>
      task(async () => {
        const all = [...tokens.values()]
          .filter(
            (t) =>
              (filter.userId === undefined || t.userId === filter.userId) &&
              (filter.appId === undefined || t.appId === filter.appId),
          )
          .reverse();
        return {
          items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage),
          total: all.length,
        };
      }),
    revoke: (id, at, notices = []) =>
      maybe(async () => {
        const t = tokens.get(id);
        if (t === undefined) return undefined;
        if (t.revokedAt === null) world.outbox?.push(...notices);
        const revoked = { ...t, revokedAt: t.revokedAt ?? at };
        tokens.set(id, revoked);
        return revoked;
      }),
    introspectionSubject: (id) =>
      maybe(async () => {
        const t = tokens.get(id);
        if (t === undefined) return undefined;
        const user = users.get(t.userId)!;
        const app = apps.get(t.appId)!;
        return {
          tokenId: t.id,
          userId: t.userId,
          expiresAt: t.expiresAt,
          revokedAt: t.revokedAt,
          userDisabled: user.disabledAt !== null,
          appUnusable: app.deleted || app.disabledAt !== null,
          apiAccess: accounts.get(user.accountId)!.apiAccess,
          keyRevoked: keys.get(t.kid)?.revokedAt != null,
          sites: sitesOfUser(t.userId).map((s) => ({ id: s.id, name: s.name })),
          siteLimit: t.siteIds,
          frameOrigins: frameOriginsOf.get(t.appId) ?? [],
        };
      }),
  };
};
