import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { AccountSiteList, AccountSiteView, SiteMemberView } from '@esign/contracts';
import { NoContent, type ApiProblem } from '../api-client.js';
import { COOKIES, setCookie } from '../cookies.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { dataTable, postButton } from '../table.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, textField, time } from '../layout.js';
import { appPage, doneNotice, problemPage, segment } from './common.js';

const DONE: Record<string, string> = {
  created:
    'The Site was created, with you as its member: switch to it above, and add who else works on it below.',
  added: 'The user was added to the Site. Their tokens reach it within seconds.',
  removed: 'The user was removed from the Site. Their tokens stop reaching it within seconds.',
};

const memberTable = (deps: WebDeps, visitor: Visitor, site: AccountSiteView) =>
  site.members.length === 0
    ? html`<p>No members.</p>`
    : dataTable({
        caption: html`Members of ${site.name}`,
        captionHidden: true,
        columns: ['User', { label: 'Added', wide: true }, { label: 'Actions', hidden: true }],
        rows: site.members.map((m) => [
          m.email,
          time(m.added_at),
          postButton({
            action: `${deps.base}/sites/${site.id}/members/${m.user_id}/remove`,
            csrf: csrfField(visitor.csrf),
            label: 'Remove',
            ariaLabel: `Remove ${m.email} from ${site.name}`,
          }),
        ]),
      });

/** A form the API refused: adding a member to a Site, or a new Site (ADR 3050). */
type Failure =
  | { readonly siteId: number; readonly email: string; readonly problem: ApiProblem }
  | { readonly newSite: string; readonly problem: ApiProblem };

/** Account admins make a Site (ADR 3050): a separate environment or a team, with them on it. */
const newSiteForm = (deps: WebDeps, visitor: Visitor, failed: Failure | undefined) => {
  const refused = failed !== undefined && 'newSite' in failed ? failed : undefined;
  return html`<section class="panel" aria-labelledby="new-site">
    <h3 id="new-site">New Site</h3>
    <p class="hint">
      A separate environment (development beside production) or a team. You are its first member; its name is
      unique in the account.
    </p>
    ${problemSummary(refused?.problem, { name: 'new-site-name' })}
    <form method="post" action="${deps.base}/sites/new" novalidate>
      ${csrfField(visitor.csrf)}
      ${textField({
        id: 'new-site-name',
        name: 'name',
        label: 'Name of the new Site',
        value: refused?.newSite ?? '',
        required: true,
        error: fieldErrors(refused?.problem).get('name'),
      })}
      <button type="submit" class="secondary">Create Site</button>
    </form>
  </section>`;
};

const sitesPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  failed?: Failure,
): Promise<void> => {
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
      <p>The pages show one Site at a time. Your access tokens reach every Site you are a member of.</p>
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
                        ? html` <strong>current</strong> · <a href="${deps.base}/branding">Branding</a>`
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
              ${newSiteForm(deps, visitor, failed)}
              ${managed.map((site) => {
                const member =
                  failed !== undefined && 'siteId' in failed && failed.siteId === site.id
                    ? failed
                    : undefined;
                const problem = member?.problem;
                const id = `email-${site.id}`;
                return html`<section class="panel" aria-labelledby="site-${site.id}">
                  <h3 id="site-${site.id}">${site.name} <span class="hint">(id ${site.id})</span></h3>
                  ${memberTable(deps, visitor, site)} ${problemSummary(problem, { email: id })}
                  <form method="post" action="${deps.base}/sites/${site.id}/members" novalidate>
                    ${csrfField(visitor.csrf)}
                    ${textField({ id, name: 'email', label: `E-mail of the user to add to ${site.name}`, type: 'email', value: member?.email ?? '', error: fieldErrors(problem).get('email') })}
                    <button type="submit" class="secondary">Add to ${site.name}</button>
                  </form>
                </section>`;
              })}`
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
    const site = form.visitor.me.sites.find((s) => String(s.id) === form.fields.site_id);
    if (site !== undefined) setCookie(ctx, deps.cookies, COOKIES.site, String(site.id), 365 * 86_400);
    ctx.status = 303;
    // Back where the switch was made (the Referer is same-origin: Referrer-Policy same-origin).
    const referer = ctx.get('referer');
    ctx.redirect(backTo(deps, referer === '' ? undefined : new URL(referer, 'http://x').pathname));
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
