import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { WebhookDeliveryDetail, WebhookEndpointView } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html } from '../html.js';
import { csrfField, time } from '../layout.js';
import { appPage, noSitePage, problemPage, segment } from './common.js';
import { attemptsTable, endpointPath, enabledBadge, eventList } from './webhook-view.js';

const endpointOf = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor, id: string) => {
  const site = visitor.site;
  if (site === undefined) {
    noSitePage(ctx, deps, visitor, 'sites');
    return undefined;
  }
  const found = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/webhooks/${segment(id)}`,
    codec: WebhookEndpointView,
  });
  if (E.isLeft(found)) {
    problemPage(ctx, deps, visitor, 'sites', found.left);
    return undefined;
  }
  return { site, endpoint: found.right };
};

/** `/app/webhooks/:id/delete`: what deleting does, and the form that does it (no script needed). */
export const deleteConfirmPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
): Promise<void> => {
  const found = await endpointOf(ctx, deps, visitor, id);
  if (found === undefined) return;
  const { endpoint } = found;
  const here = endpointPath(deps, endpoint.id);
  appPage(ctx, deps, visitor, {
    title: 'Delete the webhook endpoint?',
    section: 'sites',
    body: html` <p class="crumbs">
        <a href="${deps.base}/sites">Sites</a> › <a href="${deps.base}/webhooks">Webhooks</a> ›
        <a href="${here}">Endpoint</a>
      </p>
      <h1>Delete the webhook endpoint?</h1>
      <dl class="facts">
        <dt>URL</dt>
        <dd><code>${endpoint.url}</code></dd>
        <dt>State</dt>
        <dd>${enabledBadge(endpoint)}</dd>
        <dt>Events</dt>
        <dd>${eventList(endpoint)}</dd>
      </dl>
      <p class="notice">
        No event is sent to it any more, and its delivery log is deleted with it. This cannot be undone. To
        pause it instead, untick <strong>Enabled</strong> on its page.
      </p>
      <form method="post" action="${here}/delete" class="actions">
        ${csrfField(visitor.csrf)}
        <button type="submit" class="danger">Delete endpoint</button>
        <a href="${here}">Cancel, keep it</a>
      </form>`,
  });
};

/** `/app/webhooks/:id/deliveries/:delivery_id`: one delivery and every attempt at it. */
export const deliveryPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  deliveryId: string,
): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'sites');
  const found = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/webhooks/${segment(id)}/deliveries/${segment(deliveryId)}`,
    codec: WebhookDeliveryDetail,
  });
  if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'sites', found.left);
  const d = found.right;
  const back = endpointPath(deps, d.endpoint_id);
  appPage(ctx, deps, visitor, {
    title: `Delivery of ${d.event_type}`,
    section: 'sites',
    body: html` <p class="crumbs">
        <a href="${deps.base}/sites">Sites</a> › <a href="${deps.base}/webhooks">Webhooks</a> ›
        <a href="${back}#deliveries">Endpoint</a>
      </p>
      <h1>Delivery of <code>${d.event_type}</code></h1>
      <dl class="facts">
        <dt>Status</dt>
        <dd><span class="state state-${d.status}">${d.status}</span></dd>
        <dt>Attempts</dt>
        <dd>${d.attempts}</dd>
        <dt>Created</dt>
        <dd>${time(d.created_at)}</dd>
        <dt>Last attempt</dt>
        <dd>${time(d.last_attempt_at)}</dd>
        ${
          d.next_attempt_at === null
            ? ''
            : html`<dt>Next attempt</dt>
                <dd>${time(d.next_attempt_at)}</dd>`
        }
        <dt>Settled</dt>
        <dd>${d.settled_at === null ? html`<span class="hint">not yet</span>` : time(d.settled_at)}</dd>
        <dt>Last response status</dt>
        <dd>${d.response_status === null ? html`<span class="hint">none</span>` : d.response_status}</dd>
        ${
          d.error === null
            ? ''
            : html`<dt>Last error</dt>
                <dd>${d.error}</dd>`
        }
        <dt>Event id</dt>
        <dd><code>${d.event_id}</code> (the body’s <code>id</code>: the same in every retry)</dd>
        <dt>Delivery id</dt>
        <dd><code>${d.id}</code> (its <code>Esign-Delivery-Id</code> header)</dd>
      </dl>
      <h2>Attempts</h2>
      ${
        d.attempt_history.length === 0
          ? html`<p class="notice">Not attempted yet.</p>`
          : attemptsTable(d.attempt_history)
      }
      <p><a href="${back}#deliveries">Back to the endpoint’s deliveries</a></p>`,
  });
};
