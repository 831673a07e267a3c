import type Router from '@koa/router';
import {
  AddSiteMemberBody,
  CreateAccountSiteBody,
  UpdateAccountSiteBody,
  UpdateAccountBody,
  UpdateAccountUserBody,
  type AccountSiteView,
  type AccountView,
  type AccountUserView,
  type SiteMemberView,
} from '@esign/contracts';
import type { AppState } from '@esign/platform';
import {
  addSiteMember,
  createAccountSite,
  currentAccount,
  listAccountSites,
  listAccountUsers,
  removeSiteMember,
  renameAccount,
  updateAccountSite,
  updateAccountUser,
} from '../../application/account-admin.js';
import { authenticateSession } from '../../application/authenticate-session.js';
import type { Deps } from '../../application/deps.js';
import { notFound } from '../../domain/errors.js';
import type { Account, Site, User } from '../../domain/model.js';
import type { Member } from '../../ports/site-repository.js';
import { problemOf } from './problems.js';
import { bearerOf, bodyOf, pageOf, pageView, run } from './request.js';

const memberView = (m: Member): SiteMemberView => ({
  user_id: m.userId,
  email: m.email,
  added_at: m.addedAt.toISOString(),
});

const accountView = (a: Account & { readonly admins: readonly string[] }): AccountView => ({
  id: a.id,
  name: a.name,
  api_access: a.apiAccess,
  created_at: a.createdAt.toISOString(),
  admins: [...a.admins],
});

const siteView = (s: Site & { readonly members: readonly Member[] }): AccountSiteView => ({
  id: s.id,
  name: s.name,
  created_at: s.createdAt.toISOString(),
  default_locale: s.defaultLocale,
  members: s.members.map(memberView),
});

const userView = (u: User & { readonly siteIds: readonly number[] }): AccountUserView => ({
  id: u.id,
  email: u.email,
  disabled_at: u.disabledAt === null ? null : u.disabledAt.toISOString(),
  admin: u.accountAdmin,
  site_ids: [...u.siteIds],
});

/** A site id in a path: a canonical positive integer, else the same 404 as an unknown site. */
const siteIdOf = (raw: string | undefined): number => {
  if (raw === undefined || !/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > 2_147_483_647)
    throw problemOf(notFound('site', raw ?? ''));
  return Number(raw);
};

/**
 * Account administration, authenticated by the user's session like the rest of the
 * self-service API: the account itself (its name: any user reads it, an admin renames it),
 * and for account admins its Sites with their members (renaming one, adding a user to or
 * removing them from it) and its users (disabling or enabling one, making one an admin or
 * no longer one).
 */
export const accountRoutes = (router: Router<AppState>, deps: Deps): void => {
  const session = (header: string | undefined) => run(authenticateSession(deps)(bearerOf(header)));

  router.get('/v1.1/account', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    ctx.body = accountView(await run(currentAccount(deps)(user)));
  });

  router.patch('/v1.1/account', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const body = bodyOf(UpdateAccountBody, ctx);
    ctx.body = accountView(await run(renameAccount(deps)(user, body.name)));
  });

  router.get('/v1.1/account/sites', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const page = pageOf(ctx.query);
    ctx.body = pageView(page, await run(listAccountSites(deps)(user, page)), siteView);
  });

  router.post('/v1.1/account/sites', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const body = bodyOf(CreateAccountSiteBody, ctx);
    ctx.status = 201;
    ctx.body = siteView(await run(createAccountSite(deps)(user, { name: body.name })));
  });

  router.patch('/v1.1/account/sites/:site', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const siteId = siteIdOf(ctx.params.site);
    const body = bodyOf(UpdateAccountSiteBody, ctx);
    const change = {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.default_locale === undefined ? {} : { defaultLocale: body.default_locale }),
    };
    ctx.body = siteView(await run(updateAccountSite(deps)(user, { siteId, ...change })));
  });

  router.get('/v1.1/account/users', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const page = pageOf(ctx.query);
    ctx.body = pageView(page, await run(listAccountUsers(deps)(user, page)), userView);
  });

  router.patch('/v1.1/account/users/:user', async (ctx) => {
    const admin = await session(ctx.get('authorization'));
    const body = bodyOf(UpdateAccountUserBody, ctx);
    ctx.body = userView(await run(updateAccountUser(deps)(admin, { userId: ctx.params.user!, ...body })));
  });

  router.post('/v1.1/account/sites/:site/members', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const siteId = siteIdOf(ctx.params.site);
    const body = bodyOf(AddSiteMemberBody, ctx);
    const added = await run(addSiteMember(deps)(user, { siteId, email: body.email }));
    ctx.status = added.added ? 201 : 200;
    ctx.body = memberView(added.member);
  });

  router.delete('/v1.1/account/sites/:site/members/:user', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    await run(removeSiteMember(deps)(user, { siteId: siteIdOf(ctx.params.site), userId: ctx.params.user! }));
    ctx.status = 204;
  });
};
