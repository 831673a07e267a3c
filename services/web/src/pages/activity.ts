import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type Koa from 'koa';
import { REQUEST_HISTORY_TYPES, TEMPLATE_EVENT_TYPES } from '@esign/contracts';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { html } from '../html.js';
import { testMark, time } from '../layout.js';
import { dataTable } from '../table.js';
import { appPage, noSitePage, problemPage } from './common.js';
import { HistoryEntry, signerOfEntry, whatHappened } from './request-history.js';
import { TEMPLATE_EVENT_LABELS } from './template-history.js';

/**
 * `/app/activity`: what happened lately to the current Site's Requests, newest first, from
 * the Site's feed looked back (`GET /v1.1/sites/:id/events?order=desc`, ADR 3190), one type
 * or all, a page at a time: **Older** follows the feed's `next_before`. A template event
 * type shows the Site's templates' events instead (ADR 3700).
 */

const PER_PAGE = 50;

/** An entry of any type, as the Request's History reads it, marked when of a test-mode Request. */
const ActivityEntry = t.intersection([HistoryEntry, t.partial({ test_mode: t.boolean })]);
type ActivityEntry = t.TypeOf<typeof ActivityEntry>;
/** The feed as this page reads it. */
const ActivityPage = t.type({
  data: t.array(ActivityEntry),
  has_more: t.boolean,
  next_before: t.union([t.string, t.null]),
});

/** The filter's choices, in the order things usually happen to a Request. */
const TYPE_LABELS: Readonly<Record<string, string>> = {
  'request.sent': 'Sent',
  'request.viewed': 'Viewed',
  'request.signed': 'Signed',
  'request.declined': 'Declined',
  'request.completed': 'Completed',
  'request.reminded': 'Reminded',
  'request.turn_started': 'Next signer’s turn',
  'request.signer_updated': 'Contact corrected',
  'request.updated': 'Settings changed',
  'request.signer_added': 'Signer added',
  'request.signer_removed': 'Signer removed',
  'request.contract_added': 'Contract added',
  'request.contract_removed': 'Contract removed',
  'request.contracts_reordered': 'Contracts reordered',
  'request.delivery_failed': 'Could not be delivered',
  'request.cancelled': 'Cancelled',
  'request.expired': 'Expired',
};
const REQUEST_TYPES = [
  ...Object.keys(TYPE_LABELS).filter((type) => (REQUEST_HISTORY_TYPES as readonly string[]).includes(type)),
  ...REQUEST_HISTORY_TYPES.filter((type) => !(type in TYPE_LABELS)),
];

/** The Site's template events, listed when one is chosen (ADR 3700): "Template published". */
const TEMPLATE_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(TEMPLATE_EVENT_LABELS).map(([type, label]) => [type, `Template ${label.toLowerCase()}`]),
);
const LABELS: Readonly<Record<string, string>> = { ...TYPE_LABELS, ...TEMPLATE_LABELS };
const isTemplateType = (type: string | undefined): boolean =>
  (TEMPLATE_EVENT_TYPES as readonly (string | undefined)[]).includes(type);

/** A template event's row: what happened to which template, linked unless it is gone. */
const templateRow = (deps: WebDeps, e: ActivityEntry) => {
  const id = typeof e.data.contract_id === 'number' ? e.data.contract_id : undefined;
  const name = typeof e.data.name === 'string' ? e.data.name : '';
  return [
    `${LABELS[e.type] ?? e.type}: “${name}”`,
    id === undefined || e.type === 'contract.deleted'
      ? name
      : html`<a href="${deps.base}/templates/${String(id)}">${name}</a>`,
  ] as const;
};

/** One choice of the type filter, selected when it is the one shown. */
const option = (known: string, shown: string | undefined) =>
  html`<option value="${known}" ${known === shown ? html` selected` : ''}>${LABELS[known] ?? known}</option>`;

/** A cursor as the feed writes it (base64url); the API decides whether it is one of its own. */
const CURSOR = /^[A-Za-z0-9_-]{1,64}$/;

const activityPage = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'requests');
  const type = [...REQUEST_TYPES, ...TEMPLATE_EVENT_TYPES].find((known) => known === ctx.query.type);
  const templates = isTemplateType(type);
  const before =
    typeof ctx.query.before === 'string' && CURSOR.test(ctx.query.before) ? ctx.query.before : '';
  const query = new URLSearchParams({
    order: 'desc',
    per_page: String(PER_PAGE),
    ...(type && { type }),
    ...(before && { before }),
  });
  const feed = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/events?${query.toString()}`,
    codec: ActivityPage,
  });
  if (E.isLeft(feed)) return problemPage(ctx, deps, visitor, 'requests', feed.left);
  const { data, has_more: more, next_before: older } = feed.right;
  /** This page again, for the same type: the newest entries, or those before `cursor`. */
  const link = (cursor?: string) => {
    const params = new URLSearchParams({ ...(type && { type }), ...(cursor && { before: cursor }) });
    return `${deps.base}/activity${params.size === 0 ? '' : `?${params.toString()}`}`;
  };
  const what = type === undefined ? 'events' : `“${LABELS[type] ?? type}” events`;
  appPage(ctx, deps, visitor, {
    title: 'Activity',
    section: 'requests',
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>Activity <span class="hint">on ${site.name}</span></h1>
      <p>
        What happened to this Site’s Requests, newest first: each event your webhook endpoints can receive,
        whether or not you have any. A Request’s own page has its whole history. Choose a template event to
        see what happened to the Site’s templates.
      </p>
      <form
        method="get"
        action="${deps.base}/activity"
        class="bar panel"
        role="search"
        aria-label="Filter activity"
      >
        <label for="type">Show</label>
        <select id="type" name="type">
          <option value="">All Request events</option>
          <optgroup label="Requests">${REQUEST_TYPES.map((known) => option(known, type))}</optgroup>
          <optgroup label="Templates">${TEMPLATE_EVENT_TYPES.map((known) => option(known, type))}</optgroup>
        </select>
        <button type="submit" class="secondary">Show</button>
      </form>
      ${
        data.length === 0
          ? html`<p class="notice">
              ${
                before
                  ? `No older ${what}.`
                  : templates
                    ? `No ${what} yet.`
                    : `No ${what} yet: they appear here once Requests are sent.`
              }
            </p>`
          : dataTable({
              caption: before ? `Older ${what}, newest first` : `The latest ${what}, newest first`,
              captionHidden: true,
              region: 'Activity',
              columns: [
                'When',
                'What happened',
                templates ? 'Template' : 'Request',
                { label: 'Event', wide: true },
              ],
              rows: data.map((e) => {
                if (isTemplateType(e.type)) {
                  const [happened, link] = templateRow(deps, e);
                  return [time(e.created_at), happened, link, html`<code>${e.type}</code>`];
                }
                const requestId = typeof e.data.request_id === 'string' ? e.data.request_id : undefined;
                return [
                  time(e.created_at),
                  html`${whatHappened(signerOfEntry, e)}${testMark(e.test_mode === true)}`,
                  requestId === undefined
                    ? ''
                    : html`<a href="${deps.base}/requests/${encodeURIComponent(requestId)}"
                        ><code>${requestId.slice(0, 8)}</code
                        ><span class="visually-hidden"> (Request ${requestId})</span></a
                      >`,
                  html`<code>${e.type}</code>`,
                ];
              }),
            })
      }
      <nav class="pager" aria-label="Pages">
        ${before ? html`<a href="${link()}">Newest</a>` : ''}
        ${more && older !== null ? html`<a href="${link(older)}" rel="next">Older</a>` : ''}
      </nav>`,
  });
};

export const activityRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/activity', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await activityPage(ctx, deps, visitor);
  });
};
