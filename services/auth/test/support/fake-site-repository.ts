/* eslint-disable @typescript-eslint/require-await -- the fakes implement async ports synchronously. */
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { notFound } from '../../src/domain/errors.js';
import type { Account, Site, User } from '../../src/domain/model.js';
import type { Member, SiteRepository } from '../../src/ports/site-repository.js';
import { maybe, task } from './port-task.js';

/** Sites and their members in the fake world's maps; `sitesOfUser` for the fakes that read them. */
export const fakeSiteRepository = (world: {
  readonly accounts: ReadonlyMap<string, Account>;
  readonly users: ReadonlyMap<string, User>;
  readonly sites: Map<number, Site>;
  readonly members: Array<{ siteId: number; userId: string; addedAt: Date }>;
}) => {
  const { accounts, users, sites, members } = world;
  let siteIds = 0;
  const sitesOfUser = (userId: string): Site[] =>
    members
      .filter((m) => m.userId === userId)
      .map((m) => sites.get(m.siteId)!)
      .sort((a, b) => a.id - b.id);
  const repo: SiteRepository = {
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
    updateSite: (id, change) => async () => {
      const site = sites.get(id);
      if (site === undefined) return E.right(O.none);
      if (
        change.name !== undefined &&
        [...sites.values()].some(
          (s) => s.accountId === site.accountId && s.id !== id && s.name === change.name,
        )
      )
        return E.left({ _tag: 'SiteNameTaken', name: change.name });
      const updated = { ...site, ...change };
      sites.set(id, updated);
      return E.right(O.some(updated));
    },
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

  return { repo, sitesOfUser };
};
