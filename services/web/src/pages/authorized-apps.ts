import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { AuthorizationList, OAUTH_AUTHORIZATIONS_PATH } from '@esign/contracts';
import { NoContent } from '../api-client.js';
import { visitorOf, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { dataTable, postButton } from '../table.js';
import { html } from '../html.js';
import { csrfField, time } from '../layout.js';
import { appPage, problemPage, segment } from './common.js';

/**
 * The apps the user has allowed to act for them (the authorization-code grant, issue 24),
 * each with a Revoke button: its refresh tokens stop at once and its access tokens within
 * the gateway's revocation bound.
 */
export const authorizedAppRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/authorized-apps', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const list = await visitor.self({
      method: 'GET',
      path: `${OAUTH_AUTHORIZATIONS_PATH}?per_page=100`,
      codec: AuthorizationList,
    });
    if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'apps', list.left);
    const siteName = (id: number) => visitor.me.sites.find((s) => s.id === id)?.name ?? `Site ${id}`;
    appPage(ctx, deps, visitor, {
      title: 'Authorised apps',
      section: 'apps',
      body: html`<p class="crumbs"><a href="${deps.base}/apps">Developer Apps</a></p>
        <h1>Authorised apps</h1>
        <p>Apps of other accounts you have allowed to use the API as you, and the Sites each may reach.</p>
        ${
          list.right.data.length === 0
            ? html`<p class="notice">You have not authorised any app.</p>`
            : dataTable({
                caption: 'Apps that can act for you',
                columns: ['App', 'Made by', 'Sites', 'Authorised', { label: 'Actions', hidden: true }],
                rows: list.right.data.map((a) => [
                  a.app_name,
                  a.owner_account_name,
                  a.site_ids.map(siteName).join(', '),
                  time(a.authorized_at),
                  postButton({
                    action: `${deps.base}/authorized-apps/${a.client_id}/revoke`,
                    csrf: csrfField(visitor.csrf),
                    label: 'Revoke',
                    ariaLabel: `Revoke ${a.app_name}`,
                  }),
                ]),
              })
        }`,
    });
  });

  router.post('/authorized-apps/:client_id/revoke', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const revoked = await form.visitor.self({
      method: 'DELETE',
      path: `${OAUTH_AUTHORIZATIONS_PATH}/${segment(ctx.params.client_id)}`,
      codec: NoContent,
    });
    if (E.isLeft(revoked)) return problemPage(ctx, deps, form.visitor, 'apps', revoked.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/authorized-apps`);
  });
};
