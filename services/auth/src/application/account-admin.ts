import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { PageOf, PageRequest } from '@esign/contracts';
import type { SessionUser, Site, User } from '../domain/model.js';
import type { Member } from '../ports/site-repository.js';
import type { Deps } from './deps.js';

/**
 * An account admin manages who is on which of the account's Sites, from the API as the
 * web application does: the spec's dedicated user, added to a single Site, makes tokens
 * that reach only that Site. Every use case here checks the admin flag and keeps to the
 * admin's own account (another account's Site is a plain 404).
 */
const adminOnly = (session: SessionUser): E.Either<AuthError, SessionUser> =>
  session.accountAdmin ? E.right(session) : E.left({ _tag: 'AccountAdminRequired' });

/** Accounts hold few Sites and users: a page is cut from the whole list. */
const pageOf = <A>(items: readonly A[], page: PageRequest): PageOf<A> => ({
  items: items.slice((page.page - 1) * page.perPage, page.page * page.perPage),
  total: items.length,
});

const siteOfAccount = async (
  deps: Deps,
  session: SessionUser,
  siteId: number,
): Promise<E.Either<AuthError, Site>> => {
  const site = await deps.sites.findSite(siteId)();
  return site === undefined || site.accountId !== session.accountId
    ? E.left(notFound('site', siteId))
    : E.right(site);
};

export const listAccountSites =
  (deps: Deps) =>
  (session: SessionUser, page: PageRequest): TE.TaskEither<AuthError, PageOf<Site & { members: Member[] }>> =>
  async () => {
    const admin = adminOnly(session);
    if (E.isLeft(admin)) return admin;
    const sites = pageOf(await deps.sites.listSites({ accountId: session.accountId })(), page);
    const items = await Promise.all(
      sites.items.map(async (site) => ({ ...site, members: await deps.sites.listMembers(site.id)() })),
    );
    return E.right({ items, total: sites.total });
  };

export const listAccountUsers =
  (deps: Deps) =>
  (session: SessionUser, page: PageRequest): TE.TaskEither<AuthError, PageOf<User & { siteIds: number[] }>> =>
  async () => {
    const admin = adminOnly(session);
    if (E.isLeft(admin)) return admin;
    const users = pageOf(await deps.accounts.listUsers({ accountId: session.accountId })(), page);
    const items = await Promise.all(
      users.items.map(async (user) => ({
        ...user,
        siteIds: (await deps.sites.sitesOf(user.id)()).map((s) => s.id),
      })),
    );
    return E.right({ items, total: users.total });
  };

/** Adds a user of the account, named by e-mail address, to one of its Sites. */
export const addSiteMember =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly siteId: number; readonly email: string },
  ): TE.TaskEither<AuthError, { member: Member; added: boolean }> =>
  async () => {
    const admin = adminOnly(session);
    if (E.isLeft(admin)) return admin;
    const site = await siteOfAccount(deps, session, input.siteId);
    if (E.isLeft(site)) return site;
    const email = input.email.toLowerCase();
    const user = await deps.accounts.findUserByEmail(email)();
    if (user === undefined || user.accountId !== session.accountId)
      return E.left({ _tag: 'NotAccountUser', email });
    const added = await deps.sites.addMember(site.right.id, user.id, deps.clock.now())();
    if (E.isLeft(added)) return added;
    const member = (await deps.sites.listMembers(site.right.id)()).find((m) => m.userId === user.id);
    if (member === undefined) return E.left(notFound('membership', `${site.right.id}/${user.id}`));
    return E.right({ member, added: added.right.added });
  };

/**
 * Sets the language a Site's signers read when their entry names none (ADR 2320); null
 * clears it. Requests made from then on take it; those made before keep theirs.
 */
export const setSiteDefaultLocale =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly siteId: number; readonly defaultLocale: string | null },
  ): TE.TaskEither<AuthError, { site: Site; members: Member[] }> =>
  async () => {
    const admin = adminOnly(session);
    if (E.isLeft(admin)) return admin;
    const site = await siteOfAccount(deps, session, input.siteId);
    if (E.isLeft(site)) return site;
    const updated = await deps.sites.setDefaultLocale(site.right.id, input.defaultLocale)();
    if (updated === undefined) return E.left(notFound('site', String(input.siteId)));
    return E.right({ site: updated, members: await deps.sites.listMembers(updated.id)() });
  };

/** Removes a user from one of the account's Sites; their tokens stop reaching it within the gateway's cache bound. */
export const removeSiteMember =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly siteId: number; readonly userId: string },
  ): TE.TaskEither<AuthError, void> =>
  async () => {
    const admin = adminOnly(session);
    if (E.isLeft(admin)) return admin;
    const site = await siteOfAccount(deps, session, input.siteId);
    if (E.isLeft(site)) return site;
    const removed = await deps.sites.removeMember(site.right.id, input.userId)();
    return E.isLeft(removed) ? removed : E.right(undefined);
  };
