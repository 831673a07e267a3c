/* eslint-disable @typescript-eslint/require-await -- the fakes implement async ports synchronously. */
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { Deps, Policy } from '../../src/application/deps.js';
import { notFound } from '../../src/domain/errors.js';
import type { Account, Site, TokenRecord, User } from '../../src/domain/model.js';
import {
  DEFAULT_ANONYMOUS_LIMITS,
  DEFAULT_THROTTLE,
  PER_EMAIL_CAP,
  type AttemptState,
} from '../../src/domain/throttle.js';
import type { AccountRepository } from '../../src/ports/account-repository.js';
import type { PasswordAttempts } from '../../src/ports/password-attempts.js';
import type { PasswordHasher } from '../../src/ports/password-hasher.js';
import type { StoredKey } from '../../src/ports/signing-keys.js';
import { fakeAppRepository, type FakeApp } from './fake-app-repository.js';
import { fakeOAuthRepository } from './fake-oauth.js';
import { fakeSigningKeys } from './fake-signing-keys.js';
import { fakeSiteRepository } from './fake-site-repository.js';
import { fakeTokenRepository } from './fake-token-repository.js';
import { fakeInvitations } from './fake-invitations.js';
import { fakePasswordResets } from './fake-password-resets.js';
import { fakeSessionRepository, type FakeSession } from './fake-sessions.js';
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
  const apps = new Map<string, FakeApp>();
  const tokens = new Map<string, TokenRecord>();
  const sessions = new Map<string, FakeSession>();
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
    renameAccount: (id, name) =>
      maybe(async () => {
        const a = accounts.get(id);
        if (a === undefined) return undefined;
        const renamed = { ...a, name };
        accounts.set(id, renamed);
        return renamed;
      }),
    setApiAccess: (id, enabled, tell) => async () => {
      const a = accounts.get(id);
      if (a === undefined) return E.left(notFound('account', id));
      if (a.apiAccess !== enabled)
        resets.outbox.push(
          ...tell({
            accountName: a.name,
            users: [...users.values()]
              .filter((u) => u.accountId === id)
              .map(({ passwordHash: _p, ...user }) => user),
          }),
        );
      const updated = { ...a, apiAccess: enabled };
      accounts.set(id, updated);
      return E.right(updated);
    },
    createUser: (user, passwordHash) => async () => {
      if (!accounts.has(user.accountId)) return E.left(notFound('account', user.accountId));
      if ([...users.values()].some((u) => u.email === user.email))
        return E.left({ _tag: 'EmailTaken', email: user.email });
      // The account's first user administers it, as the Postgres repository decides.
      const made = {
        ...user,
        accountAdmin: ![...users.values()].some((u) => u.accountId === user.accountId),
      };
      users.set(user.id, { ...made, passwordHash });
      return E.right(made);
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
    changeAccountUser: (accountId, userId, decide) => async () => {
      const ofAccount = [...users.values()]
        .filter((u) => u.accountId === accountId)
        .map(({ passwordHash: _p, ...user }) => user);
      const decided = decide({ accountName: accounts.get(accountId)?.name ?? '', users: ofAccount });
      if (E.isLeft(decided)) return decided;
      const { user, notices } = decided.right;
      users.set(userId, { ...user, passwordHash: users.get(userId)!.passwordHash });
      resets.outbox.push(...notices);
      return E.right(user);
    },
  };

  const siteFake = fakeSiteRepository({ accounts, users, sites, members });
  const { sitesOfUser } = siteFake;
  const siteRepo = siteFake.repo;

  const appFake = fakeAppRepository({ accounts, users, apps, tokens, outbox: resets.outbox });
  const { frameOrigins, frameOriginsOf } = appFake;
  const appRepo = appFake.repo;

  const tokenRepo = fakeTokenRepository({
    accounts,
    users,
    apps,
    tokens,
    keys,
    frameOriginsOf,
    sitesOfUser,
    outbox: resets.outbox,
  });

  const sessionRepo = fakeSessionRepository({ accounts, users, sessions, keys, sitesOfUser });

  const attemptRepo: PasswordAttempts = {
    register: (key, decide) => async () => {
      const decision = decide(attempts.get(key));
      if (E.isRight(decision)) attempts.set(key, decision.right);
      return decision;
    },
    clear: (key) => task(async () => void attempts.delete(key)),
  };

  const { keyStore, keyGenerator, signer } = fakeSigningKeys({
    keys,
    tokens,
    users,
    outbox: resets.outbox,
    next,
  });
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
