/* eslint-disable @typescript-eslint/require-await -- the fakes implement async ports synchronously. */
import type { AccountEvent } from '@esign/contracts';
import type { Account, DeveloperApp, TokenRecord, User } from '../../src/domain/model.js';
import type { AppRepository } from '../../src/ports/app-repository.js';
import type { FrameOriginStore } from '../../src/ports/frame-origin-store.js';
import { maybe, task } from './port-task.js';

export type FakeApp = DeveloperApp & { secret: Uint8Array | null; deleted: boolean };

/** Developer Apps and their frame origins in the fake world's maps (deleting one revokes its tokens). */
export const fakeAppRepository = (world: {
  readonly accounts: ReadonlyMap<string, Account>;
  readonly users: ReadonlyMap<string, User>;
  readonly apps: Map<string, FakeApp>;
  readonly tokens: Map<string, TokenRecord>;
  /** The events the outbox would have taken. */
  readonly outbox: AccountEvent[];
}) => {
  const { accounts, users, apps, tokens } = world;
  const plainApp = (a: DeveloperApp & { secret: Uint8Array | null; deleted: boolean }): DeveloperApp => {
    const { secret: _s, deleted: _d, ...app } = a;
    return app;
  };
  const repo: AppRepository = {
    create: (app) => task(async () => (apps.set(app.id, { ...app, secret: null, deleted: false }), app)),
    find: (id) =>
      maybe(async () => {
        const a = apps.get(id);
        return a === undefined || a.deleted ? undefined : plainApp(a);
      }),
    findClient: (id) =>
      maybe(async () => {
        const a = apps.get(id);
        if (a === undefined || a.deleted) return undefined;
        const owner = users.get(a.userId)!;
        return {
          app: plainApp(a),
          secretFingerprint: a.secret,
          ownerDisabled: owner.disabledAt !== null,
          apiAccess: accounts.get(owner.accountId)!.apiAccess,
        };
      }),
    listByUser: (userId, page) =>
      task(async () => {
        const all = [...apps.values()].filter((a) => a.userId === userId && !a.deleted).reverse();
        return {
          items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage).map(plainApp),
          total: all.length,
        };
      }),
    list: (filter) =>
      task(async () =>
        [...apps.values()]
          .filter((a) => !a.deleted && (filter.userId === undefined || a.userId === filter.userId))
          .map(plainApp),
      ),
    setClientSecret: (id, fingerprint, at) =>
      task(async () => {
        const a = apps.get(id)!;
        apps.set(id, { ...a, secret: fingerprint, clientSecretCreatedAt: fingerprint === null ? null : at });
      }),
    setCallbackUrl: (id, callbackUrl) =>
      maybe(async () => {
        const a = apps.get(id);
        if (a === undefined || a.deleted) return undefined;
        apps.set(id, { ...a, callbackUrl });
        return plainApp({ ...a, callbackUrl });
      }),
    setDisabled: (id, disabledAt, notices = []) =>
      maybe(async () => {
        const a = apps.get(id);
        if (a === undefined || a.deleted) return undefined;
        if ((a.disabledAt === null) === (disabledAt === null)) return plainApp(a);
        apps.set(id, { ...a, disabledAt });
        world.outbox.push(...notices);
        return plainApp({ ...a, disabledAt });
      }),
    remove: (id, at, notices = []) =>
      task(async () => {
        if (apps.get(id)?.deleted === false) world.outbox.push(...notices);
        apps.set(id, { ...apps.get(id)!, deleted: true });
        for (const t of tokens.values())
          if (t.appId === id && t.revokedAt === null) tokens.set(t.id, { ...t, revokedAt: at });
      }),
  };

  const frameOriginsOf = new Map<string, readonly string[]>();
  const frameOrigins: FrameOriginStore = {
    get: (id) => task(async () => frameOriginsOf.get(id) ?? []),
    set: (id, origins) =>
      task(async () => {
        const a = apps.get(id);
        if (a === undefined || a.deleted) return false;
        frameOriginsOf.set(id, [...origins]);
        return true;
      }),
  };

  return { repo, frameOrigins, frameOriginsOf };
};
