import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { WebhookDeliveryList, WebhookDeliveryStatus, WebhookEndpointView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, time } from '../layout.js';
import { postButton } from '../table.js';
import { appPage, doneNotice, noSitePage, problemPage, segment } from './common.js';
import { endpointFields, entryOfEndpoint, FIELD_IDS, type EndpointEntry } from './webhook-form.js';
import {
  deliveriesTable,
  enabledBadge,
  endpointPath,
  eventList,
  secretPanel,
  type ShownSecret,
} from './webhook-view.js';

const STATUSES = Object.keys(WebhookDeliveryStatus.keys) as WebhookDeliveryStatus[];
const PER_PAGE = 20;

const DONE: Record<string, string> = {
  saved: 'Saved. Events from now on are sent as it says.',
};

export interface EndpointExtra {
  /** What create or rotate handed over: the only time the secret is shown. */
  readonly shown?: ShownSecret;
  /** The edit form as typed, and the API's refusal of it. */
  readonly entry?: EndpointEntry;
  readonly problem?: ApiProblem;
}

/**
 * `/app/webhooks/:id`: one endpoint of the current Site: what it is, its edit form (PATCH),
 * Rotate secret, a link to Delete (which asks first) and its recent deliveries, filtered by
 * status and in pages.
 */
export const endpointPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  extra: EndpointExtra = {},
): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'sites');
  const path = `/v1.1/sites/${site.id}/webhooks/${segment(id)}`;
  const found = await visitor.api({ method: 'GET', path, codec: WebhookEndpointView });
  if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'sites', found.left);
  const endpoint = found.right;
  const status = STATUSES.find((s) => s === ctx.query.status);
  const pageNo = /^[1-9][0-9]{0,5}$/.test(String(ctx.query.page)) ? Number(ctx.query.page) : 1;
  const query = new URLSearchParams({ page: String(pageNo), per_page: String(PER_PAGE) });
  if (status) query.set('status', status);
  const deliveries = await visitor.api({
    method: 'GET',
    path: `${path}/deliveries?${query.toString()}`,
    codec: WebhookDeliveryList,
  });
  if (E.isLeft(deliveries)) return problemPage(ctx, deps, visitor, 'sites', deliveries.left);
  const here = endpointPath(deps, endpoint.id);
  const link = (p: number) =>
    `${here}?${new URLSearchParams({ ...(status ? { status } : {}), page: String(p) }).toString()}#deliveries`;
  const list = deliveries.right;
  const pages = Math.max(1, Math.ceil(list.total_count / PER_PAGE));
  const errors = fieldErrors(extra.problem);
  appPage(ctx, deps, visitor, {
    title: 'Webhook endpoint',
    section: 'sites',
    ...(extra.problem ? { status: extra.problem.status } : {}),
    body: html` <p class="crumbs">
        <a href="${deps.base}/sites">Sites</a> › <a href="${deps.base}/webhooks">Webhooks</a>
      </p>
      <h1>Webhook endpoint <span class="hint">on ${site.name}</span></h1>
      ${doneNotice(ctx, DONE, extra.problem)} ${extra.shown ? secretPanel(extra.shown) : ''}
      <dl class="facts">
        <dt>URL</dt>
        <dd><code>${endpoint.url}</code></dd>
        <dt>State</dt>
        <dd>${enabledBadge(endpoint)}</dd>
        <dt>Events</dt>
        <dd>${eventList(endpoint)}</dd>
        <dt>Alert e-mail</dt>
        <dd>${endpoint.alert_email}</dd>
        <dt>Description</dt>
        <dd>${endpoint.description === '' ? html`<span class="hint">none</span>` : endpoint.description}</dd>
        ${
          endpoint.failing_since === null
            ? ''
            : html`<dt>Failing since</dt>
                <dd>${time(endpoint.failing_since)}</dd>`
        }
        ${
          endpoint.previous_secret_expires_at === null
            ? ''
            : html`<dt>Old secret valid until</dt>
                <dd>${time(endpoint.previous_secret_expires_at)}</dd>`
        }
        <dt>Created</dt>
        <dd>${time(endpoint.created_at)}</dd>
        <dt>Endpoint id</dt>
        <dd><code>${endpoint.id}</code></dd>
      </dl>
      <h2 id="edit">Change it</h2>
      ${problemSummary(extra.problem, FIELD_IDS)}
      <form method="post" action="${here}" class="panel" novalidate>
        ${csrfField(visitor.csrf)} ${endpointFields(extra.entry ?? entryOfEndpoint(endpoint), errors, true)}
        <button type="submit">Save changes</button>
      </form>
      <h2 id="rotate">Rotate the secret</h2>
      <p>
        A new signing secret, shown once. The old one keeps working for a day, so your receiver can move to
        the new one without missing a delivery.
      </p>
      ${postButton({
        action: `${here}/rotate-secret`,
        csrf: csrfField(visitor.csrf),
        label: 'Rotate secret',
        ariaLabel: 'Rotate secret',
        kind: 'secondary',
      })}
      <h2 id="delete">Delete it</h2>
      <p>
        Deleting stops every delivery to it and deletes its delivery log.
        <a href="${here}/delete">Delete this endpoint…</a>
      </p>
      <h2 id="deliveries">Recent deliveries</h2>
      <form
        method="get"
        action="${here}#deliveries"
        class="bar panel"
        role="search"
        aria-label="Filter deliveries"
      >
        <label for="delivery-status">Status</label>
        <select id="delivery-status" name="status">
          <option value="">Every status</option>
          ${STATUSES.map((s) => html`<option value="${s}" ${s === status ? html` selected` : ''}>${s}</option>`)}
        </select>
        <button type="submit" class="secondary">Filter</button>
      </form>
      <p role="status">
        ${list.total_count}
        ${list.total_count === 1 ? 'delivery' : 'deliveries'}${status ? html` ${status}` : ''} in the last 30
        days.
      </p>
      ${
        list.data.length === 0
          ? html`<p class="notice">
              No deliveries${status ? html` ${status}` : ''} yet. One is made for each event it is sent.
            </p>`
          : deliveriesTable(deps, endpoint.id, list.data)
      }
      <nav class="pager" aria-label="Pages of deliveries">
        ${pageNo > 1 ? html`<a href="${link(pageNo - 1)}" rel="prev">Previous page</a>` : ''}
        <span>Page ${pageNo} of ${pages}</span>
        ${list.has_more ? html`<a href="${link(pageNo + 1)}" rel="next">Next page</a>` : ''}
      </nav>`,
  });
};
