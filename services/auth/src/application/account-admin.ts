import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { accessNotices, decideUserChange, type UserChange } from '../domain/account-users.js';
import { notFound, type AuthError } from '../domain/errors.js';
import { MAX_SITES_PER_ACCOUNT, type PageOf, type PageRequest } from '@esign/contracts';
import type { Account, SessionUser, Site, User } from '../domain/model.js';
import type { Member, SiteChange } from '../ports/site-repository.js';
import { accessChangedEvents } from './access-changed.js';
import type { Deps } from './deps.js';
import { required } from './required.js';

/**
 * An account admin manages who is on which of the account's Sites, from the API as the
 * web application does: the spec's dedicated user, added to a single Site, makes tokens
 * that reach only that Site. Every use case here checks the admin flag and keeps to the
 * admin's own account (another account's Site is a plain 404).
 */
export const adminOnly = (session: SessionUser): E.Either<AuthError, SessionUser> =>
  session.accountAdmin ? E.right(session) : E.left({ _tag: 'AccountAdminRequired' });

/**
 * The signed-in user's account, as any of its users may see it (ADR 3080), with the
 * addresses of its enabled admins: whom to ask for what only an admin may do.
 */
export const currentAccount =
  (deps: Deps) =>
  (session: SessionUser): TE.TaskEither<AuthError, Account & { admins: string[] }> =>
    pipe(
      deps.accounts.findAccount(session.accountId),
      required(() => notFound('account', session.accountId)),
      TE.flatMap((account) =>
        pipe(
          deps.accounts.listUsers({ accountId: account.id }),
          TE.map((users) => ({
            ...account,
            admins: users.filter((u) => u.accountAdmin && u.disabledAt === null).map((u) => u.email),
          })),
        ),
      ),
    );

/**
 * Renames the account (ADR 3080): the name its users' e-mails and pages show. Account
 * admins only; e-mails already sent keep the name they were written with.
 */
export const renameAccount =
  (deps: Deps) =>
  (session: SessionUser, name: string): TE.TaskEither<AuthError, Account & { admins: string[] }> =>
    pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() =>
        pipe(
          deps.accounts.renameAccount(session.accountId, name.trim()),
          required(() => notFound('account', session.accountId)),
        ),
      ),
      TE.flatMap(() => currentAccount(deps)(session)),
    );

/** Accounts hold few Sites and users: a page is cut from the whole list. */
export const pageOf = <A>(items: readonly A[], page: PageRequest): PageOf<A> => ({
  items: items.slice((page.page - 1) * page.perPage, page.page * page.perPage),
  total: items.length,
});

const siteOfAccount = (deps: Deps, session: SessionUser, siteId: number): TE.TaskEither<AuthError, Site> =>
  pipe(
    deps.sites.findSite(siteId),
    TE.map(O.filter((site) => site.accountId === session.accountId)),
    required(() => notFound('site', siteId)),
  );

/** The members of each Site, read side by side. */
const withMembers = (deps: Deps, sites: readonly Site[]) =>
  TE.traverseArray((site: Site) =>
    pipe(
      deps.sites.listMembers(site.id),
      TE.map((members) => ({ ...site, members })),
    ),
  )(sites);

export const listAccountSites =
  (deps: Deps) =>
  (session: SessionUser, page: PageRequest): TE.TaskEither<AuthError, PageOf<Site & { members: Member[] }>> =>
    pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => deps.sites.listSites({ accountId: session.accountId })),
      TE.map((all) => pageOf(all, page)),
      TE.flatMap((sites) =>
        pipe(
          withMembers(deps, sites.items),
          TE.map((items) => ({ items, total: sites.total })),
        ),
      ),
    );

/** A user with the ids of the Sites they are on, as the account's lists show them. */
const withSiteIds = (deps: Deps, user: User) =>
  pipe(
    deps.sites.sitesOf(user.id),
    TE.map((sites) => ({ ...user, siteIds: sites.map((s) => s.id) })),
  );

export const listAccountUsers =
  (deps: Deps) =>
  (session: SessionUser, page: PageRequest): TE.TaskEither<AuthError, PageOf<User & { siteIds: number[] }>> =>
    pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => deps.accounts.listUsers({ accountId: session.accountId })),
      TE.map((all) => pageOf(all, page)),
      TE.flatMap((users) =>
        pipe(
          users.items,
          TE.traverseArray((user) => withSiteIds(deps, user)),
          TE.map((items) => ({ items, total: users.total })),
        ),
      ),
    );

/** Adds a user of the account, named by e-mail address, to one of its Sites. */
export const addSiteMember =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly siteId: number; readonly email: string },
  ): TE.TaskEither<AuthError, { member: Member; added: boolean }> => {
    const email = input.email.toLowerCase();
    return pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => siteOfAccount(deps, session, input.siteId)),
      TE.bindTo('site'),
      TE.bind('user', () =>
        pipe(
          deps.accounts.findUserByEmail(email),
          TE.map(O.filter((user) => user.accountId === session.accountId)),
          required((): AuthError => ({ _tag: 'NotAccountUser', email })),
        ),
      ),
      TE.bind('added', ({ site, user }) => deps.sites.addMember(site.id, user.id, deps.clock.now())),
      TE.flatMap(({ site, user, added }) =>
        pipe(
          deps.sites.listMembers(site.id),
          TE.map((members) => O.fromNullable(members.find((m) => m.userId === user.id))),
          required(() => notFound('membership', `${site.id}/${user.id}`)),
          TE.map((member) => ({ member, added: added.added })),
        ),
      ),
    );
  };

/**
 * A new Site of the account (ADR 3050): a separate environment (development beside
 * production) or a team. The admin who makes it is its first member, so their session
 * and tokens reach it at once; they decide on the Sites page who else is on it.
 */
export const createAccountSite =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly name: string },
  ): TE.TaskEither<AuthError, Site & { members: Member[] }> =>
    pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() =>
        deps.sites.createSite({
          accountId: session.accountId,
          name: input.name.trim(),
          createdAt: deps.clock.now(),
          firstMember: session.userId,
          maxPerAccount: MAX_SITES_PER_ACCOUNT,
        }),
      ),
      TE.flatMap((site) => withMembers(deps, [site])),
      TE.map(([site]) => site!),
    );

/**
 * Renames one of the account's Sites (ADR 3070; the name stays unique within the account)
 * and/or sets the language its signers read when their entry names none (ADR 2320; null
 * clears it). Requests made from then on take the new name and language; those made
 * before keep theirs, as their signers already saw them.
 */
export const updateAccountSite =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly siteId: number } & SiteChange,
  ): TE.TaskEither<AuthError, Site & { members: Member[] }> => {
    const { siteId, ...change } = input;
    return pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => siteOfAccount(deps, session, siteId)),
      TE.flatMap((site) =>
        pipe(
          deps.sites.updateSite(
            site.id,
            change.name === undefined ? change : { ...change, name: change.name.trim() },
          ),
          required(() => notFound('site', siteId)),
        ),
      ),
      TE.flatMap((site) => withMembers(deps, [site])),
      TE.map(([site]) => site!),
    );
  };

/** Removes a user from one of the account's Sites; their tokens stop reaching it within the gateway's cache bound. */
export const removeSiteMember =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly siteId: number; readonly userId: string },
  ): TE.TaskEither<AuthError, void> =>
    pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => siteOfAccount(deps, session, input.siteId)),
      TE.flatMap((site) => deps.sites.removeMember(site.id, input.userId)),
      TE.map(() => undefined),
    );

/**
 * Changes a user of the account (ADR 3040, ADR 3060): disables them (a colleague who
 * left: their sessions end at once, their tokens and client credentials stop within the
 * gateway's cache bound) or enables them again, and makes them an admin or no longer one.
 * The change is decided with the account locked (`decideUserChange`): the account always
 * keeps an enabled admin, and an admin cannot disable themselves. Asking for what the
 * user already is changes nothing, so a repeated call keeps the first `disabled_at`.
 * Those concerned are e-mailed in the change's transaction (`accessNotices`): every admin
 * when the role moves, the user when they are disabled or enabled.
 */
export const updateAccountUser =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly userId: string } & UserChange,
  ): TE.TaskEither<AuthError, User & { siteIds: number[] }> => {
    const { userId, ...change } = input;
    const at = deps.clock.now();
    return pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() =>
        deps.accounts.changeAccountUser(session.accountId, userId, ({ accountName, users }) =>
          pipe(
            decideUserChange(users, { actorId: session.userId, targetId: userId, change, at }),
            E.map((user) => ({
              user,
              notices: accessChangedEvents(deps, accessNotices(users, user), {
                accountName,
                user,
                by: { admin: session.email },
                at,
              }),
            })),
          ),
        ),
      ),
      // A disabled user has no session left; ending them again finds none.
      TE.tap((user) =>
        change.disabled === true ? deps.sessions.revokeAllOf(user.id, at) : TE.right(undefined),
      ),
      TE.flatMap((user) => withSiteIds(deps, user)),
    );
  };
