import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { WebhookEndpointList, WebhookEndpointView, WebhookEndpointWithSecret } from '@esign/contracts';
import { NoContent, type ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { handOver, takeOver } from '../shown-once.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary } from '../layout.js';
import { dataTable } from '../table.js';
import { appPage, doneNotice, noSitePage, problemPage, segment } from './common.js';
import { deleteConfirmPage, deliveryPage } from './webhook-delivery.js';
import {
  createBody,
  endpointFields,
  entryOf,
  FIELD_IDS,
  updateBody,
  type EndpointEntry,
} from './webhook-form.js';
import { endpointPage } from './webhook-page.js';
import { enabledBadge, endpointPath, eventList, ShownSecret } from './webhook-view.js';

const DONE: Record<string, string> = {
  deleted: 'The endpoint was deleted, with its delivery log. Nothing more is sent to it.',
};

const crumbs = (deps: WebDeps) => html`<p class="crumbs"><a href="${deps.base}/sites">Sites</a></p>`;

/** `/app/webhooks`: the current Site's endpoints (at most 20: one page). */
const listPage = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'sites');
  const list = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/webhooks?per_page=100`,
    codec: WebhookEndpointList,
  });
  if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'sites', list.left);
  appPage(ctx, deps, visitor, {
    title: 'Webhooks',
    section: 'sites',
    body: html` ${crumbs(deps)}
      <h1>Webhooks <span class="hint">on ${site.name}</span></h1>
      ${doneNotice(ctx, DONE, undefined)}
      <p>
        A webhook endpoint is an address of yours that we send a signed POST to whenever one of the events it
        chose happens to this Site’s Requests, so your application need not ask. A Site has at most 20.
      </p>
      <div class="actions"><a class="button" href="${deps.base}/webhooks/new">New endpoint</a></div>
      ${
        list.right.data.length === 0
          ? html`<p class="notice">This Site has no webhook endpoints yet.</p>`
          : dataTable({
              caption: html`Webhook endpoints of ${site.name}`,
              captionHidden: true,
              region: 'Webhook endpoints',
              columns: ['URL', 'Events', 'State', { label: 'Description', wide: true }],
              rows: list.right.data.map((e) => [
                html`<a href="${endpointPath(deps, e.id)}"><code>${e.url}</code></a>`,
                eventList(e),
                enabledBadge(e),
                e.description === '' ? html`<span class="hint">none</span>` : e.description,
              ]),
            })
      }`,
  });
};

/** `/app/webhooks/new`: no event ticked (each is a choice), the alert e-mail the user's own. */
const newPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  form: { entry?: EndpointEntry; problem?: ApiProblem } = {},
): void => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'sites');
  const entry = form.entry ?? {
    url: '',
    eventTypes: [],
    alertEmail: visitor.me.user.email,
    description: '',
    enabled: true,
  };
  appPage(ctx, deps, visitor, {
    title: 'New webhook endpoint',
    section: 'sites',
    ...(form.problem ? { status: form.problem.status } : {}),
    body: html` <p class="crumbs">
        <a href="${deps.base}/sites">Sites</a> › <a href="${deps.base}/webhooks">Webhooks</a>
      </p>
      <h1>New webhook endpoint <span class="hint">on ${site.name}</span></h1>
      <p>
        We send each event you tick to the URL as a signed POST. Its signing secret is shown once, when it is
        created.
      </p>
      ${problemSummary(form.problem, FIELD_IDS)}
      <form method="post" action="${deps.base}/webhooks/new" class="panel" novalidate>
        ${csrfField(visitor.csrf)} ${endpointFields(entry, fieldErrors(form.problem), false)}
        <button type="submit">Create endpoint</button>
        <span class="hint" role="status" data-busy-status></span>
      </form>`,
  });
};

/**
 * The current Site's webhook endpoints (`/v1.1/sites/:id/webhooks…`, served by the
 * notifier): list, create (its secret shown once), change, rotate the secret, delete
 * (after a confirmation page), and the deliveries with every attempt.
 */
export const webhookRoutes = (router: Router, deps: WebDeps): void => {
  const apiPath = (site: { id: number }, id?: string) =>
    `/v1.1/sites/${site.id}/webhooks${id === undefined ? '' : `/${segment(id)}`}`;

  /** Create and rotate answer with the endpoint's page, which shows the secret once (ADR 3210). */
  const showSecret = (
    ctx: Koa.Context,
    visitor: Visitor,
    made: WebhookEndpointWithSecret,
    rotated: boolean,
  ) =>
    handOver(ctx, deps, visitor.sessionToken, endpointPath(deps, made.id), {
      secret: made.secret,
      previous_secret_expires_at: made.previous_secret_expires_at,
      rotated,
    } satisfies ShownSecret);

  router.get('/webhooks', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await listPage(ctx, deps, visitor);
  });

  router.get('/webhooks/new', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) newPage(ctx, deps, visitor);
  });

  // The API takes no Idempotency-Key here; the app's script keeps a second click from sending twice.
  router.post('/webhooks/new', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const { visitor } = form;
    if (visitor.site === undefined) return noSitePage(ctx, deps, visitor, 'sites');
    const entry = entryOf(form.fields);
    const created = await visitor.api({
      method: 'POST',
      path: apiPath(visitor.site),
      body: createBody(entry),
      codec: WebhookEndpointWithSecret,
    });
    if (E.isLeft(created)) return newPage(ctx, deps, visitor, { entry, problem: created.left });
    await showSecret(ctx, visitor, created.right, false);
  });

  router.get('/webhooks/:id', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const page = endpointPath(deps, ctx.params.id!);
    const shown = await takeOver(ctx, deps, visitor.sessionToken, page, ShownSecret);
    await endpointPage(ctx, deps, visitor, ctx.params.id!, shown === undefined ? {} : { shown });
  });

  router.post('/webhooks/:id', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const { visitor } = form;
    if (visitor.site === undefined) return noSitePage(ctx, deps, visitor, 'sites');
    const entry = entryOf(form.fields);
    const id = ctx.params.id!;
    const saved = await visitor.api({
      method: 'PATCH',
      path: apiPath(visitor.site, id),
      body: updateBody(entry),
      codec: WebhookEndpointView,
    });
    if (E.isLeft(saved)) {
      if (saved.left.status === 404) return problemPage(ctx, deps, visitor, 'sites', saved.left);
      return endpointPage(ctx, deps, visitor, id, { entry, problem: saved.left });
    }
    ctx.status = 303;
    ctx.redirect(`${endpointPath(deps, saved.right.id)}?done=saved`);
  });

  router.post('/webhooks/:id/rotate-secret', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const { visitor } = form;
    if (visitor.site === undefined) return noSitePage(ctx, deps, visitor, 'sites');
    const rotated = await visitor.api({
      method: 'POST',
      path: `${apiPath(visitor.site, ctx.params.id)}/rotate-secret`,
      body: {},
      codec: WebhookEndpointWithSecret,
    });
    if (E.isLeft(rotated)) return problemPage(ctx, deps, visitor, 'sites', rotated.left);
    await showSecret(ctx, visitor, rotated.right, true);
  });

  router.get('/webhooks/:id/delete', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await deleteConfirmPage(ctx, deps, visitor, ctx.params.id!);
  });

  router.post('/webhooks/:id/delete', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const { visitor } = form;
    if (visitor.site === undefined) return noSitePage(ctx, deps, visitor, 'sites');
    const deleted = await visitor.api({
      method: 'DELETE',
      path: apiPath(visitor.site, ctx.params.id),
      codec: NoContent,
    });
    if (E.isLeft(deleted)) return problemPage(ctx, deps, visitor, 'sites', deleted.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/webhooks?done=deleted`);
  });

  router.get('/webhooks/:id/deliveries/:delivery', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await deliveryPage(ctx, deps, visitor, ctx.params.id!, ctx.params.delivery!);
  });
};
