import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type Koa from 'koa';
import { AppList, AppView, CreatedTokenView, TokenList, type TokenView } from '@esign/contracts';
import { NoContent, type ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { copyField, csrfField, fieldErrors, problemSummary, stateBadge, textField, time } from '../layout.js';
import { handOver, takeOver } from '../shown-once.js';
import { appPage, problemPage, segment } from './common.js';

/** What the token form hands its app's page, to show once (ADR 3210). */
const ShownToken = t.type({ access_token: t.string });
type ShownToken = t.TypeOf<typeof ShownToken>;

const appPath = (deps: WebDeps, id: string): string => `${deps.base}/apps/${segment(id)}`;

const appsPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  form: { name?: string; callbackUrl?: string; problem?: ApiProblem } = {},
): Promise<void> => {
  const apps = await visitor.self({ method: 'GET', path: '/v1.1/apps?per_page=100', codec: AppList });
  if (E.isLeft(apps)) return problemPage(ctx, deps, visitor, 'apps', apps.left);
  const errors = fieldErrors(form.problem);
  appPage(ctx, deps, visitor, {
    title: 'Developer Apps',
    section: 'apps',
    ...(form.problem ? { status: form.problem.status } : {}),
    body: html` <p class="crumbs">Profile: ${visitor.me.user.email}</p>
      <h1>Developer Apps</h1>
      <p>
        An app holds the access tokens an integration uses to call the API. Its tokens reach the Sites you are
        a member of.
      </p>
      <p>
        <a href="${deps.base}/authorized-apps">Authorised apps</a>: other makers' apps you have allowed to act
        for you.
      </p>
      ${
        apps.right.data.length === 0
          ? html`<p class="notice">You have no apps yet.</p>`
          : html`<div class="table-wrap">
              <table>
                <caption>
                  Your apps
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Created</th>
                    <th scope="col" class="wide">Client id</th>
                  </tr>
                </thead>
                <tbody>
                  ${apps.right.data.map(
                    (a) =>
                      html`<tr>
                        <td><a href="${deps.base}/apps/${a.id}">${a.name}</a></td>
                        <td>${time(a.created_at)}</td>
                        <td class="wide"><code>${a.client_id}</code></td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <h2 id="create">Create an app</h2>
      ${problemSummary(form.problem, { name: 'app-name', callback_url: 'app-callback' })}
      <form method="post" action="${deps.base}/apps" class="panel" novalidate>
        ${csrfField(visitor.csrf)}
        ${textField({ id: 'app-name', name: 'name', label: 'Name', value: form.name ?? '', required: true, error: errors.get('name'), hint: 'For example the integration that will use it.' })}
        ${textField({ id: 'app-callback', name: 'callback_url', label: 'Callback URL (optional)', value: form.callbackUrl ?? '', error: errors.get('callback_url'), hint: 'Only for an app that other users authorise through our OAuth 2.0 pages: an https address (http only for localhost), matched exactly.' })}
        <button type="submit">Create app</button>
      </form>`,
  });
};

const tokenRow = (deps: WebDeps, visitor: Visitor, appId: string, t: TokenView) =>
  html`<tr>
    <td>${t.name ?? html`<span class="hint">unnamed</span>`}</td>
    <td>${stateBadge(t.state)}</td>
    <td class="wide">${t.test_mode_only ? 'Test-only' : 'Full'}</td>
    <td>${time(t.created_at)}</td>
    <td>${time(t.last_used_at)}</td>
    <td class="wide">${time(t.expires_at)}</td>
    <td>
      ${
        t.state === 'active'
          ? html`<form method="post" action="${deps.base}/tokens/${t.id}/revoke" class="inline">
              ${csrfField(visitor.csrf)}<input type="hidden" name="app_id" value="${appId}" />
              <button type="submit" class="danger" aria-label="Revoke token ${t.name ?? t.id}">Revoke</button>
            </form>`
          : ''
      }
    </td>
  </tr>`;

/** The callback URL of the authorization-code grant: set, changed or (left empty) removed. */
const callbackForm = (
  deps: WebDeps,
  visitor: Visitor,
  app: AppView,
  typed: string | undefined,
  problem: ApiProblem | undefined,
  error: string | undefined,
) =>
  html`<h2 id="callback">Callback URL</h2>
    ${error === undefined ? '' : problemSummary(problem, { callback_url: 'callback-url' })}
    <form method="post" action="${deps.base}/apps/${app.id}/callback" class="panel" novalidate>
      ${csrfField(visitor.csrf)}
      ${textField({ id: 'callback-url', name: 'callback_url', label: 'Callback URL', value: typed ?? app.callback_url ?? '', error, hint: 'Where users return after authorising this app. Empty: the app cannot be authorised by others.' })}
      <button type="submit" class="secondary">Save callback URL</button>
    </form>`;

const appDetailPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  appId: string,
  extra: { problem?: ApiProblem; created?: ShownToken; tokenName?: string; callbackUrl?: string } = {},
): Promise<void> => {
  const app = await visitor.self({ method: 'GET', path: `/v1.1/apps/${segment(appId)}`, codec: AppView });
  if (E.isLeft(app)) return problemPage(ctx, deps, visitor, 'apps', app.left);
  const tokens = await visitor.self({
    method: 'GET',
    path: `/v1.1/apps/${segment(appId)}/tokens?per_page=100`,
    codec: TokenList,
  });
  if (E.isLeft(tokens)) return problemPage(ctx, deps, visitor, 'apps', tokens.left);
  const errors = fieldErrors(extra.problem);
  const wrongPassword = extra.problem?.code === 'invalid_password' ? 'The password is wrong.' : undefined;
  const created = extra.created;
  appPage(ctx, deps, visitor, {
    title: app.right.name,
    section: 'apps',
    ...(extra.problem ? { status: extra.problem.status } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/apps">Developer Apps</a></p>
      <h1>${app.right.name}</h1>
      <dl class="facts">
        <dt>Client id</dt>
        <dd><code>${app.right.client_id}</code></dd>
        <dt>Created</dt>
        <dd>${time(app.right.created_at)}</dd>
      </dl>
      <p>
        <a href="${deps.base}/apps/${app.right.id}/frame-origins">Embedded signing: allowed frame origins</a>
      </p>
      ${
        created === undefined
          ? ''
          : html`<section class="secret" aria-labelledby="new-token">
              <h2 id="new-token">Your new access token</h2>
              <p role="status">
                Copy it now: it is shown this once and never again. Send it as
                <code>Authorization: Bearer …</code>.
              </p>
              ${copyField('access-token', 'Access token', created.access_token)}
            </section>`
      }
      <h2 id="create-token">Create token</h2>
      <p>Enter your account password again to create an access token.</p>
      ${errors.has('callback_url') ? '' : problemSummary(extra.problem, { password: 'token-password', name: 'token-name' })}
      <form method="post" action="${deps.base}/apps/${app.right.id}/tokens" class="panel" novalidate>
        ${csrfField(visitor.csrf)}
        ${textField({ id: 'token-name', name: 'name', label: 'Token name (optional)', value: extra.tokenName ?? '', error: errors.get('name') })}
        ${textField({ id: 'token-password', name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true, error: errors.get('password') ?? wrongPassword })}
        <div class="field">
          <input type="checkbox" id="token-test-mode-only" name="test_mode_only" value="true" />
          <label for="token-test-mode-only"
            >Test-only (it can create and use only test-mode Requests, which send no e-mail or SMS)</label
          >
        </div>
        <button type="submit">Create token</button>
        <span class="hint" role="status" data-busy-status></span>
      </form>
      <h2>Tokens</h2>
      ${
        tokens.right.data.length === 0
          ? html`<p class="notice">No tokens yet.</p>`
          : html`<div class="table-wrap">
              <table>
                <caption>
                  Tokens of ${app.right.name}, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">State</th>
                    <th scope="col" class="wide">Access</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col" class="wide">Expires</th>
                    <th scope="col"><span class="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${tokens.right.data.map((t) => tokenRow(deps, visitor, app.right.id, t))}
                </tbody>
              </table>
            </div>`
      }
      ${callbackForm(deps, visitor, app.right, extra.callbackUrl, extra.problem, errors.get('callback_url'))}`,
  });
};

export const appRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/apps', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await appsPage(ctx, deps, visitor);
  });

  router.post('/apps', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const name = form.fields.name ?? '';
    const callbackUrl = (form.fields.callback_url ?? '').trim();
    const created = await form.visitor.self({
      method: 'POST',
      path: '/v1.1/apps',
      body: { name, ...(callbackUrl === '' ? {} : { callback_url: callbackUrl }) },
      codec: AppView,
    });
    if (E.isLeft(created))
      return appsPage(ctx, deps, form.visitor, { name, callbackUrl, problem: created.left });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/apps/${created.right.id}`);
  });

  router.get('/apps/:id', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const page = appPath(deps, ctx.params.id!);
    const created = await takeOver(ctx, deps, visitor.sessionToken, page, ShownToken);
    await appDetailPage(ctx, deps, visitor, ctx.params.id!, created === undefined ? {} : { created });
  });

  router.post('/apps/:id/callback', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const callbackUrl = (form.fields.callback_url ?? '').trim();
    const updated = await form.visitor.self({
      method: 'PATCH',
      path: `/v1.1/apps/${segment(ctx.params.id)}`,
      body: { callback_url: callbackUrl === '' ? null : callbackUrl },
      codec: AppView,
    });
    if (E.isLeft(updated))
      return appDetailPage(ctx, deps, form.visitor, ctx.params.id!, { problem: updated.left, callbackUrl });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/apps/${updated.right.id}`);
  });

  router.post('/apps/:id/tokens', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const name = (form.fields.name ?? '').trim();
    const created = await form.visitor.self({
      method: 'POST',
      path: `/v1.1/apps/${segment(ctx.params.id)}/tokens`,
      body: {
        password: form.fields.password ?? '',
        ...(name === '' ? {} : { name }),
        ...(form.fields.test_mode_only === 'true' && { test_mode_only: true }),
      },
      codec: CreatedTokenView,
    });
    if (E.isLeft(created))
      return appDetailPage(ctx, deps, form.visitor, ctx.params.id!, {
        problem: created.left,
        tokenName: name,
      });
    await handOver(ctx, deps, form.visitor.sessionToken, appPath(deps, ctx.params.id!), {
      access_token: created.right.access_token,
    });
  });

  router.post('/tokens/:id/revoke', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const revoked = await form.visitor.self({
      method: 'DELETE',
      path: `/v1.1/tokens/${segment(ctx.params.id)}`,
      codec: NoContent,
    });
    if (E.isLeft(revoked)) return problemPage(ctx, deps, form.visitor, 'apps', revoked.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/apps/${segment(form.fields.app_id)}`);
  });
};
