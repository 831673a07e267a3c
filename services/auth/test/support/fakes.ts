/* eslint-disable @typescript-eslint/require-await -- the fakes implement async ports synchronously. */
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { Deps, Policy } from '../../src/application/deps.js';
import { notFound } from '../../src/domain/errors.js';
import type { Account, DeveloperApp, Site, TokenRecord, User } from '../../src/domain/model.js';
import {
  DEFAULT_ANONYMOUS_LIMITS,
  DEFAULT_THROTTLE,
  PER_EMAIL_CAP,
  type AttemptState,
} from '../../src/domain/throttle.js';
import type { AccountRepository } from '../../src/ports/account-repository.js';
import type { AppRepository } from '../../src/ports/app-repository.js';
import type { FrameOriginStore } from '../../src/ports/frame-origin-store.js';
import type { PasswordAttempts } from '../../src/ports/password-attempts.js';
import type { PasswordHasher } from '../../src/ports/password-hasher.js';
import type { SessionRecord, SessionRepository } from '../../src/ports/session-repository.js';
import type { KeyGenerator, KeyStore, StoredKey, TokenSigner } from '../../src/ports/signing-keys.js';
import type { Member, SiteRepository } from '../../src/ports/site-repository.js';
import type { TokenRepository } from '../../src/ports/token-repository.js';
import { fakeOAuthRepository } from './fake-oauth.js';
import { fakeInvitations } from './fake-invitations.js';
import { fakePasswordResets } from './fake-password-resets.js';
import { maybe, task } from './port-task.js';

/** In-memory implementations of every port, with the state open for assertions. */
export const fakeWorld = (start = new Date('2030-01-01T00:00:00Z')) => {
  let now = start.getTime();
  let counter = 0;
  const next = () => (++counter).toString(16).padStart(12, '0');

  const accounts = new Map<string, Account>();
  const users = new Map<string, User & { passwordHash: string }>();
  const sites = new Map<number, Site>();
  const members: Array<{ siteId: number; userId: string; addedAt: Date }> = [];
  const apps = new Map<string, DeveloperApp & { secret: Uint8Array | null; deleted: boolean }>();
  const tokens = new Map<string, TokenRecord>();
  const sessions = new Map<
    string,
    { id: string; userId: string; fingerprint: string; expiresAt: Date; revokedAt: Date | null }
  >();
  const attempts = new Map<string, AttemptState>();
  const keys = new Map<string, StoredKey>();
  const used: Array<{ tokenId: string; at: Date }> = [];
  const calls = { verify: 0, verifyNobody: 0, hash: 0 };

  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

  const resets = fakePasswordResets(users, () => accountRepo);
  const invitations = fakeInvitations({ accounts, users, sites, members, outbox: resets.outbox });
  const accountRepo: AccountRepository = {
    createAccount: (a) => task(async () => (accounts.set(a.id, a), a)),
    findAccount: (id) => maybe(async () => accounts.get(id)),
    listAccounts: () => task(async () => [...accounts.values()]),
    setApiAccess: (id, enabled) => async () => {
      const a = accounts.get(id);
      if (a === undefined) return E.left(notFound('account', id));
      const updated = { ...a, apiAccess: enabled };
      accounts.set(id, updated);
      return E.right(updated);
    },
    createUser: (user, passwordHash) => async () => {
      if (!accounts.has(user.accountId)) return E.left(notFound('account', user.accountId));
      if ([...users.values()].some((u) => u.email === user.email))
        return E.left({ _tag: 'EmailTaken', email: user.email });
      users.set(user.id, { ...user, passwordHash });
      return E.right(user);
    },
    findUser: (id) =>
      maybe(async () => {
        const u = users.get(id);
        if (u === undefined) return undefined;
        const { passwordHash: _p, ...user } = u;
        return user;
      }),
    findUserByEmail: (email) => maybe(async () => [...users.values()].find((u) => u.email === email)),
    findCredentials: (email) =>
      maybe(async () => {
        const u = [...users.values()].find((x) => x.email === email.toLowerCase());
        return u && { ...u, apiAccess: accounts.get(u.accountId)!.apiAccess };
      }),
    listUsers: (filter) =>
      task(async () =>
        [...users.values()].filter((u) => filter.accountId === undefined || u.accountId === filter.accountId),
      ),
    setPasswordHash: (userId, passwordHash) =>
      task(async () => {
        users.set(userId, { ...users.get(userId)!, passwordHash });
      }),
    changePassword: (userId, passwordHash, at, notice) =>
      task(async () => {
        users.set(userId, { ...users.get(userId)!, passwordHash });
        resets.endOpen(userId, at);
        resets.outbox.push(notice);
        let sessionsEnded = 0;
        let tokensRevoked = 0;
        let clientSecretsRemoved = 0;
        for (const s of sessions.values())
          if (s.userId === userId && s.revokedAt === null) {
            sessions.set(s.id, { ...s, revokedAt: at });
            sessionsEnded++;
          }
        for (const tok of tokens.values())
          if (tok.userId === userId && tok.revokedAt === null) {
            tokens.set(tok.id, { ...tok, revokedAt: at });
            tokensRevoked++;
          }
        for (const a of apps.values())
          if (a.userId === userId && a.secret !== null) {
            apps.set(a.id, { ...a, secret: null, clientSecretCreatedAt: null });
            clientSecretsRemoved++;
          }
        return { sessionsEnded, tokensRevoked, clientSecretsRemoved };
      }),
    setUserDisabled: (userId, disabledAt) => async () => {
      const u = users.get(userId);
      if (u === undefined) return E.left(notFound('user', userId));
      users.set(userId, { ...u, disabledAt });
      return E.right({ ...u, disabledAt });
    },
  };

  let siteIds = 0;
  const sitesOfUser = (userId: string): Site[] =>
    members
      .filter((m) => m.userId === userId)
      .map((m) => sites.get(m.siteId)!)
      .sort((a, b) => a.id - b.id);
  const siteRepo: SiteRepository = {
    createSite:
      ({ firstMember, maxPerAccount, ...input }) =>
      async () => {
        if (!accounts.has(input.accountId)) return E.left(notFound('account', input.accountId));
        const held = [...sites.values()].filter((s) => s.accountId === input.accountId);
        if (maxPerAccount !== undefined && held.length >= maxPerAccount)
          return E.left({ _tag: 'TooManySites', max: maxPerAccount });
        if (held.some((s) => s.name === input.name))
          return E.left({ _tag: 'SiteNameTaken', name: input.name });
        const site = { id: ++siteIds, ...input, defaultLocale: null };
        sites.set(site.id, site);
        if (firstMember !== undefined && users.get(firstMember)?.accountId === input.accountId)
          members.push({ siteId: site.id, userId: firstMember, addedAt: input.createdAt });
        return E.right(site);
      },
    findSite: (id) => maybe(async () => sites.get(id)),
    setDefaultLocale: (id, defaultLocale) =>
      maybe(async () => {
        const site = sites.get(id);
        if (site === undefined) return undefined;
        const updated = { ...site, defaultLocale };
        sites.set(id, updated);
        return updated;
      }),
    listSites: (filter) =>
      task(async () =>
        [...sites.values()].filter((s) => filter.accountId === undefined || s.accountId === filter.accountId),
      ),
    sitesOf: (userId) => task(async () => sitesOfUser(userId)),
    listMembers: (siteId) =>
      task(async () =>
        members
          .filter((m) => m.siteId === siteId)
          .map((m): Member => ({ userId: m.userId, email: users.get(m.userId)!.email, addedAt: m.addedAt })),
      ),
    addMember: (siteId, userId, at) => async () => {
      const site = sites.get(siteId);
      const user = users.get(userId);
      if (site === undefined) return E.left(notFound('site', siteId));
      if (user === undefined) return E.left(notFound('user', userId));
      if (site.accountId !== user.accountId) return E.left({ _tag: 'DifferentAccounts', siteId, userId });
      if (members.some((m) => m.siteId === siteId && m.userId === userId)) return E.right({ added: false });
      members.push({ siteId, userId, addedAt: at });
      return E.right({ added: true });
    },
    removeMember: (siteId, userId) => async () => {
      if (!sites.has(siteId)) return E.left(notFound('site', siteId));
      if (!users.has(userId)) return E.left(notFound('user', userId));
      const i = members.findIndex((m) => m.siteId === siteId && m.userId === userId);
      if (i < 0) return E.right({ removed: false });
      members.splice(i, 1);
      return E.right({ removed: true });
    },
  };

  const plainApp = (a: DeveloperApp & { secret: Uint8Array | null; deleted: boolean }): DeveloperApp => {
    const { secret: _s, deleted: _d, ...app } = a;
    return app;
  };
  const appRepo: AppRepository = {
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
    setDisabled: (id, disabledAt) =>
      maybe(async () => {
        const a = apps.get(id);
        if (a === undefined) return undefined;
        apps.set(id, { ...a, disabledAt });
        return plainApp({ ...a, disabledAt });
      }),
    remove: (id, at) =>
      task(async () => {
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

  const tokenRepo: TokenRepository = {
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
    revoke: (id, at) =>
      maybe(async () => {
        const t = tokens.get(id);
        if (t === undefined) return undefined;
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

  /** The account's first user administers it, as the Postgres repository decides. */
  const firstOfAccount = (accountId: string): string | undefined =>
    [...users.values()]
      .filter((u) => u.accountId === accountId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0]?.id;

  const sessionRepo: SessionRepository = {
    create: (s) =>
      task(
        async () =>
          void sessions.set(s.id, {
            id: s.id,
            userId: s.userId,
            fingerprint: hex(s.fingerprint),
            expiresAt: s.expiresAt,
            revokedAt: null,
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
          accountAdmin: firstOfAccount(user.accountId) === user.id,
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
        };
      }),
    revoke: (id, at) => task(async () => void sessions.set(id, { ...sessions.get(id)!, revokedAt: at })),
    revokeAllOf: (userId, at) =>
      task(async () => {
        for (const s of sessions.values())
          if (s.userId === userId && s.revokedAt === null) sessions.set(s.id, { ...s, revokedAt: at });
      }),
  };

  const attemptRepo: PasswordAttempts = {
    register: (key, decide) => async () => {
      const decision = decide(attempts.get(key));
      if (E.isRight(decision)) attempts.set(key, decision.right);
      return decision;
    },
    clear: (key) => task(async () => void attempts.delete(key)),
  };

  const keyStore: KeyStore = {
    list: () =>
      task(async () =>
        [...keys.values()].map((k) => {
          const live = [...tokens.values()]
            .filter((t) => t.kid === k.kid && t.revokedAt === null)
            .map((t) => t.expiresAt.getTime());
          return { ...k, lastTokenExpiresAt: live.length === 0 ? null : new Date(Math.max(...live)) };
        }),
      ),
    insert: (key, createdAt, activatesAt) =>
      task(
        async () =>
          void keys.set(key.kid, {
            ...key,
            createdAt,
            activatesAt,
            revokedAt: null,
            lastTokenExpiresAt: null,
          }),
      ),
    revoke: (kids, at) =>
      task(async () => {
        for (const kid of kids) keys.set(kid, { ...keys.get(kid)!, revokedAt: at });
      }),
  };

  const keyGenerator: KeyGenerator = {
    generate: () =>
      task(async () => {
        const kid = `kid-${next()}`;
        return {
          kid,
          publicJwk: { kty: 'OKP', crv: 'Ed25519', x: `x-${kid}`, kid, alg: 'EdDSA', use: 'sig' },
          encryptionKeyId: 'k1',
          sealedPrivateKey: new Uint8Array([1]),
        };
      }),
  };

  const signer: TokenSigner = {
    sign: (kid, c) => task(async () => `jwt.${kid}.${c.jti}.${c.exp}.${c.client_id}`),
    verify: (token) =>
      maybe(async () => {
        const parts = token.split('.');
        const jti = parts[2];
        const clientId = parts[4];
        return parts[0] === 'jwt' && jti !== undefined && clientId !== undefined && tokens.has(jti)
          ? { jti, clientId }
          : undefined;
      }),
  };
  const oauth = fakeOAuthRepository(tokens, (id) => apps.get(id)?.name ?? '');

  const hasher: PasswordHasher = {
    hash: (p) => task(async () => (calls.hash++, `fake$${p}`)),
    verify: (p, encoded) =>
      task(async () => (calls.verify++, encoded === `fake$${p}` || encoded === `old$${p}`)),
    verifyNobody: () => task(async () => (calls.verifyNobody++, false as const)),
    needsRehash: (encoded) => !encoded.startsWith('fake$'),
    saturated: () => false,
  };

  const policy: Policy = {
    accessTokenTtlDays: 90,
    clientCredentialsTtlSeconds: 3600,
    sessionTtlSeconds: 3600,
    throttle: DEFAULT_THROTTLE,
    emailThrottle: PER_EMAIL_CAP,
    anonymous: DEFAULT_ANONYMOUS_LIMITS,
    publicBaseUrl: 'https://esign.example',
  };

  const deps: Deps = {
    clock: { now: () => new Date(now) },
    secrets: {
      uuid: () => `00000000-0000-4000-8000-${next()}`,
      newSecret: (prefix) => `${prefix}secret-${next()}`,
      fingerprint: (s) => new TextEncoder().encode(`fp:${s}`),
      pkceChallenge: (verifier) =>
        new TextEncoder().encode(createHash('sha256').update(verifier, 'ascii').digest('base64url')),
      same: (a, b) => hex(a) === hex(b),
    },
    hasher,
    accounts: accountRepo,
    frameOrigins,
    sites: siteRepo,
    apps: appRepo,
    tokens: tokenRepo,
    oauth: oauth.repo,
    usage: { record: (tokenId, at) => void used.push({ tokenId, at }) },
    sessions: sessionRepo,
    attempts: attemptRepo,
    passwordResets: resets.store,
    invitations: invitations.store,
    quota: { take: () => maybe<number>(async () => undefined) },
    keys: keyStore,
    keyGenerator,
    signer,
    policy,
  };

  return {
    deps,
    state: {
      accounts,
      users,
      sites,
      members,
      apps,
      tokens,
      sessions,
      attempts,
      keys,
      used,
      calls,
      oauth,
      resets: resets.resets,
      outbox: resets.outbox,
      invitations: invitations.invitations,
    },
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
    now: () => new Date(now),
  };
};

export type FakeWorld = ReturnType<typeof fakeWorld>;
