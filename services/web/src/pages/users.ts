import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import {
  AccountSiteList,
  AccountView,
  AccountUserList,
  AccountUserView,
  InvitationList,
  InvitationView,
} from '@esign/contracts';
import { NoContent, type ApiResult } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import type { FormFields } from '../forms.js';
import { posted } from '../guard.js';
import { problemPage, segment } from './common.js';
import { USER_CHANGES } from './users-actions.js';
import { notAdminPage, STEPPED_DOWN, usersPage, type InviteFailure, type UsersData } from './users-page.js';

/** The account's users, Sites and open invitations, read together (the first 100 of each). */
const usersData = async (visitor: Visitor): Promise<ApiResult<UsersData>> => {
  const [users, sites, invitations] = await Promise.all([
    visitor.self({ method: 'GET', path: '/v1.1/account/users?per_page=100', codec: AccountUserList }),
    visitor.self({ method: 'GET', path: '/v1.1/account/sites?per_page=100', codec: AccountSiteList }),
    visitor.self({ method: 'GET', path: '/v1.1/account/invitations?per_page=100', codec: InvitationList }),
  ]);
  if (E.isLeft(users)) return users;
  if (E.isLeft(sites)) return sites;
  if (E.isLeft(invitations)) return invitations;
  return E.right({ users: users.right, sites: sites.right.data, invitations: invitations.right });
};

const showUsers = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  failed?: InviteFailure,
): Promise<void> => {
  const data = await usersData(visitor);
  if (E.isLeft(data)) return problemPage(ctx, deps, visitor, 'users', failed?.problem ?? data.left);
  usersPage(ctx, deps, visitor, data.right, failed);
};

/** The Sites ticked in the invite form (`site_<id>` boxes). */
const tickedSites = (fields: FormFields): number[] =>
  Object.keys(fields)
    .filter((name) => /^site_[1-9][0-9]{0,14}$/.test(name) && fields[name] === 'on')
    .map((name) => Number(name.slice('site_'.length)));

/**
 * Account administration of people (ADR 3030): the account's users (**Disable** one who
 * left, **Enable** them again: ADR 3040; **Make admin**, **Remove admin**, and **Step down**
 * on one's own row: ADR 3060), its open invitations with **Revoke**, and
 * **Invite** by e-mail address onto the Sites ticked, as an admin when that box is ticked
 * (ADR 3090). Only account admins see the lists; auth refuses anyone else's invitation
 * (403) whatever the page shows.
 */
export const userRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/users', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    if (!visitor.me.account_admin) {
      const account = await visitor.self({ method: 'GET', path: '/v1.1/account', codec: AccountView });
      if (E.isLeft(account)) return problemPage(ctx, deps, visitor, 'users', account.left);
      return notAdminPage(ctx, deps, visitor, account.right);
    }
    await showUsers(ctx, deps, visitor);
  });

  router.post('/users/invitations', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const email = (form.fields.email ?? '').trim();
    const siteIds = tickedSites(form.fields);
    // "Make them an admin" (ADR 3090); unticked, the invitation names no role: a member's.
    const admin = form.fields.admin === 'on';
    const invited = await form.visitor.self({
      method: 'POST',
      path: '/v1.1/account/invitations',
      body: { email, site_ids: siteIds, ...(admin ? { admin } : {}) },
      codec: InvitationView,
    });
    if (E.isLeft(invited)) {
      if (invited.left.status === 403) return problemPage(ctx, deps, form.visitor, 'users', invited.left);
      return showUsers(ctx, deps, form.visitor, { email, siteIds, admin, problem: invited.left });
    }
    ctx.status = 303;
    ctx.redirect(`${deps.base}/users?invited=${encodeURIComponent(invited.right.email)}`);
  });

  for (const [change, { body, done }] of Object.entries(USER_CHANGES))
    router.post(`/users/:id/${change}`, async (ctx) => {
      const form = await posted(ctx, deps);
      if (form === undefined) return;
      const changed = await form.visitor.self({
        method: 'PATCH',
        path: `/v1.1/account/users/${segment(ctx.params.id)}`,
        body,
        codec: AccountUserView,
      });
      if (E.isLeft(changed)) return problemPage(ctx, deps, form.visitor, 'users', changed.left);
      ctx.status = 303;
      // Stepped down: the lists are no longer theirs to see, so the page they get says so.
      const steppedDown = 'admin' in body && !body.admin && changed.right.id === form.visitor.me.user.id;
      ctx.redirect(`${deps.base}/users?done=${steppedDown ? STEPPED_DOWN : done}`);
    });

  router.post('/users/invitations/:id/revoke', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const revoked = await form.visitor.self({
      method: 'DELETE',
      path: `/v1.1/account/invitations/${segment(ctx.params.id)}`,
      codec: NoContent,
    });
    if (E.isLeft(revoked)) return problemPage(ctx, deps, form.visitor, 'users', revoked.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/users?done=revoked`);
  });
};
