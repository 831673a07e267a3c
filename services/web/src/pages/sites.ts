import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { AccountSiteList, AccountSiteView, AccountView, SiteMemberView } from '@esign/contracts';
import { NoContent } from '../api-client.js';
import { switchSite, visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { csrfField } from '../layout.js';
import { adminsOf, appPage, doneNotice, problemPage, segment } from './common.js';
import { accountNameForm, newSiteForm, sitePanel, type Failure } from './sites-admin.js';

const DONE: Record<string, string> = {
  created:
    'The Site was created, with you as its member: switch to it above, and add who else works on it below.',
  added: 'The user was added to the Site. Their tokens reach it within seconds.',
  removed: 'The user was removed from the Site. Their tokens stop reaching it within seconds.',
  saved: 'The Site’s settings were saved. Requests created from now on take them; earlier ones keep theirs.',
  renamed: 'The account was renamed. E-mails sent from now on use the new name.',
};

const sitesPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  failed?: Failure,
): Promise<void> => {
  const account = await visitor.self({ method: 'GET', path: '/v1.1/account', codec: AccountView });
  if (E.isLeft(account)) return problemPage(ctx, deps, visitor, 'sites', account.left);
  let managed: readonly AccountSiteView[] | undefined;
  if (visitor.me.account_admin) {
    const sites = await visitor.self({
      method: 'GET',
      path: '/v1.1/account/sites?per_page=100',
      codec: AccountSiteList,
    });
    if (E.isLeft(sites)) return problemPage(ctx, deps, visitor, 'sites', sites.left);
    managed = sites.right.data;
  }
  appPage(ctx, deps, visitor, {
    title: 'Sites',
    section: 'sites',
    ...(failed ? { status: failed.problem.status } : {}),
    body: html` <h1>Sites</h1>
      ${doneNotice(ctx, DONE, failed)}
      <p>
        Your account is <strong>${account.right.name}</strong>. The pages show one Site at a time; your access
        tokens reach every Site of it you are a member of.
      </p>
      ${adminsOf(account.right)}
      ${
        visitor.me.sites.length === 0
          ? html`<p class="notice">You are not a member of any Site yet.</p>`
          : html`<ul>
              ${visitor.me.sites.map(
                (s) =>
                  html`<li>
                    ${s.name} (id
                    ${s.id})${
                      s.id === visitor.site?.id
                        ? html` <strong>current</strong> · <a href="${deps.base}/branding">Branding</a> ·
                            <a href="${deps.base}/webhooks">Webhooks</a>`
                        : html` <form method="post" action="${deps.base}/sites/switch" class="inline">
                            ${csrfField(visitor.csrf)}
                            <input type="hidden" name="site_id" value="${s.id}" /><button
                              type="submit"
                              class="link"
                              aria-label="Switch to ${s.name}"
                            >
                              Switch
                            </button>
                          </form>`
                    }
                  </li>`,
              )}
            </ul>`
      }
      ${
        managed === undefined
          ? ''
          : html`<h2>Your account's Sites and their members</h2>
              <p>
                As an administrator of the account you make its Sites and decide who is on each. A dedicated
                user added to a single Site makes tokens that reach only that Site, which keeps production and
                development apart.
              </p>
              <p>
                To bring someone new into the account,
                <a href="${deps.base}/users">invite them on the Users page</a>, where the account's users and
                open invitations are listed too.
              </p>
              ${accountNameForm(deps, visitor, account.right, failed)} ${newSiteForm(deps, visitor, failed)}
              ${managed.map((site) => sitePanel(deps, visitor, site, failed))}`
      }`,
  });
};

/** Only a path inside the application may follow a switch. */
const backTo = (deps: WebDeps, raw: string | undefined): string =>
  raw !== undefined && raw.startsWith(`${deps.base}/`) && !raw.startsWith('//') && !/[\\\s]/.test(raw)
    ? raw
    : `${deps.base}/requests`;

export const siteRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/sites', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await sitesPage(ctx, deps, visitor);
  });

  router.post('/sites/switch', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    switchSite(ctx, deps, form.visitor, form.fields.site_id ?? '');
    ctx.status = 303;
    // Back where the switch was made (the Referer is same-origin: Referrer-Policy same-origin).
    const referer = ctx.get('referer');
    ctx.redirect(backTo(deps, referer === '' ? undefined : new URL(referer, 'http://x').pathname));
  });

  router.post('/sites/account', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const name = (form.fields.name ?? '').trim();
    const renamed = await form.visitor.self({
      method: 'PATCH',
      path: '/v1.1/account',
      body: { name },
      codec: AccountView,
    });
    if (E.isLeft(renamed)) {
      if (renamed.left.status === 403) return problemPage(ctx, deps, form.visitor, 'sites', renamed.left);
      return sitesPage(ctx, deps, form.visitor, { accountName: name, problem: renamed.left });
    }
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sites?done=renamed`);
  });

  router.post('/sites/new', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const name = (form.fields.name ?? '').trim();
    const created = await form.visitor.self({
      method: 'POST',
      path: '/v1.1/account/sites',
      body: { name },
      codec: AccountSiteView,
    });
    if (E.isLeft(created)) {
      if (created.left.status === 403) return problemPage(ctx, deps, form.visitor, 'sites', created.left);
      return sitesPage(ctx, deps, form.visitor, { newSite: name, problem: created.left });
    }
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sites?done=created`);
  });

  router.post('/sites/:site/settings', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const name = (form.fields.name ?? '').trim();
    const locale = (form.fields.default_locale ?? '').trim();
    const saved = await form.visitor.self({
      method: 'PATCH',
      path: `/v1.1/account/sites/${segment(ctx.params.site)}`,
      body: { name, default_locale: locale === '' ? null : locale },
      codec: AccountSiteView,
    });
    if (E.isLeft(saved)) {
      if (saved.left.status === 403 || saved.left.status === 404)
        return problemPage(ctx, deps, form.visitor, 'sites', saved.left);
      const settingsOf = Number(ctx.params.site);
      return sitesPage(ctx, deps, form.visitor, { settingsOf, name, locale, problem: saved.left });
    }
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sites?done=saved`);
  });

  router.post('/sites/:site/members', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const siteId = Number(ctx.params.site);
    const email = (form.fields.email ?? '').trim();
    const added = await form.visitor.self({
      method: 'POST',
      path: `/v1.1/account/sites/${segment(ctx.params.site)}/members`,
      body: { email },
      codec: SiteMemberView,
    });
    if (E.isLeft(added)) return sitesPage(ctx, deps, form.visitor, { siteId, email, problem: added.left });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sites?done=added`);
  });

  router.post('/sites/:site/members/:user/remove', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const removed = await form.visitor.self({
      method: 'DELETE',
      path: `/v1.1/account/sites/${segment(ctx.params.site)}/members/${segment(ctx.params.user)}`,
      codec: NoContent,
    });
    if (E.isLeft(removed)) return problemPage(ctx, deps, form.visitor, 'sites', removed.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sites?done=removed`);
  });
};
