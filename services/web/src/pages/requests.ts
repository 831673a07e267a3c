import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { RequestList, RequestView, type NotificationStatus, type SignerView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { csrfField, problemSummary, stateBadge, time } from '../layout.js';
import { appPage, noSitePage, problemPage, segment } from './common.js';

/** A test-mode Request (issue #22): nothing it sends leaves the platform. */
const testMark = (testMode: boolean) =>
  testMode ? html` <span class="state state-test" title="Test mode: nothing is sent">test</span>` : '';

const STATES = ['draft', 'sent', 'completed', 'cancelled', 'expired', 'declined'] as const;
const PER_PAGE = 20;

const DELIVERY: Record<NotificationStatus, [string, string]> = {
  not_requested: ['Not requested', 'none'],
  no_address: ['No address', 'failed'],
  pending: ['Sending', 'pending'],
  delivered: ['Sent', 'delivered'],
  failed: ['Failed', 'failed'],
  quota_exceeded: ['Not sent: daily quota used up', 'failed'],
};

const delivery = (status: NotificationStatus) =>
  html`<span class="state state-${DELIVERY[status][1]}">${DELIVERY[status][0]}</span>`;

const dashboard = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'requests');
  const state = STATES.find((s) => s === ctx.query.state);
  const pageNo = /^[1-9][0-9]{0,5}$/.test(String(ctx.query.page)) ? Number(ctx.query.page) : 1;
  const query = new URLSearchParams({ page: String(pageNo), per_page: String(PER_PAGE) });
  if (state) query.set('state', state);
  const list = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/requests?${query.toString()}`,
    codec: RequestList,
  });
  if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'requests', list.left);
  const pages = Math.max(1, Math.ceil(list.right.total_count / PER_PAGE));
  const link = (p: number) =>
    `${deps.base}/requests?${new URLSearchParams({ ...(state ? { state } : {}), page: String(p) }).toString()}`;
  appPage(ctx, deps, visitor, {
    title: 'Requests',
    section: 'requests',
    body: html` <h1>Requests <span class="hint">on ${site.name}</span></h1>
      <form
        method="get"
        action="${deps.base}/requests"
        class="bar panel"
        role="search"
        aria-label="Filter Requests"
      >
        <label for="state">State</label>
        <select id="state" name="state">
          <option value="">All states</option>
          ${STATES.map((s) => html`<option value="${s}" ${s === state ? html` selected` : ''}>${s}</option>`)}
        </select>
        <button type="submit" class="secondary">Filter</button>
      </form>
      <p role="status">
        ${list.right.total_count}
        ${list.right.total_count === 1 ? 'Request' : 'Requests'}${state ? html` in state ${state}` : ''}.
      </p>
      ${
        list.right.data.length === 0
          ? html`<p class="notice">
              No Requests here yet. Create one with <code>POST /v1.1/sites/${site.id}/requests</code>.
            </p>`
          : html`<div class="table-wrap">
              <table>
                <caption class="visually-hidden">
                  Requests of ${site.name}, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Request</th>
                    <th scope="col">State</th>
                    <th scope="col">Signers</th>
                    <th scope="col" class="wide">Created</th>
                    <th scope="col" class="wide">Sent</th>
                  </tr>
                </thead>
                <tbody>
                  ${list.right.data.map(
                    (r) =>
                      html`<tr>
                        <td>
                          <a href="${deps.base}/requests/${r.id}"
                            ><code>${r.id.slice(0, 8)}</code
                            ><span class="visually-hidden"> (Request ${r.id})</span></a
                          >
                        </td>
                        <td>${stateBadge(r.state)}${testMark(r.test_mode)}</td>
                        <td>${r.signers.map((s) => s.signer_id).join(', ')}</td>
                        <td class="wide">${time(r.created_at)}</td>
                        <td class="wide">${r.sent_at ? time(r.sent_at) : '—'}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <nav class="pager" aria-label="Pages">
        ${pageNo > 1 ? html`<a href="${link(pageNo - 1)}" rel="prev">Previous page</a>` : ''}
        <span>Page ${pageNo} of ${pages}</span>
        ${list.right.has_more ? html`<a href="${link(pageNo + 1)}" rel="next">Next page</a>` : ''}
      </nav>`,
  });
};

const signerRow = (s: SignerView, i: number) =>
  html`<tr>
    <th scope="row">${s.signer_id}</th>
    <td>${s.email ?? ''}${s.email && s.mobile_number ? html`<br />` : ''}${s.mobile_number ?? ''}</td>
    <td>${stateBadge(s.state)}${s.signed_at ? html`<br />${time(s.signed_at)}` : ''}</td>
    <td>${delivery(s.notifications.email)}</td>
    <td>${delivery(s.notifications.sms)}</td>
    <td class="copy-cell">
      <div class="copy">
        <label class="visually-hidden" for="url-${i}">Execution URL for ${s.signer_id}</label>
        <input id="url-${i}" type="text" readonly value="${s.request_url}" />
        <button
          type="button"
          class="secondary"
          data-copy="url-${i}"
          hidden
          aria-label="Copy the Execution URL for ${s.signer_id}"
        >
          Copy
        </button>
      </div>
      <p class="hint" id="url-${i}-status" role="status"></p>
    </td>
  </tr>`;

const DONE: Record<string, string> = {
  send: 'The Request was sent: its Execution URLs are live and the signers are being told.',
  remind: 'The signers who have not signed were reminded.',
  cancel: 'The Request was cancelled.',
};

const requestPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  problem?: ApiProblem,
): Promise<void> => {
  const found = await visitor.api({
    method: 'GET',
    path: `/v1.1/requests/${segment(id)}`,
    codec: RequestView,
  });
  if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'requests', found.left);
  const r = found.right;
  const done = typeof ctx.query.done === 'string' ? DONE[ctx.query.done] : undefined;
  const action = (name: string, label: string, style = '') =>
    html`<form method="post" action="${deps.base}/requests/${r.id}/${name}" class="inline">
      ${csrfField(visitor.csrf)}
      <button type="submit" ${style ? html` class="${style}"` : ''}>${label}</button>
    </form>`;
  appPage(ctx, deps, visitor, {
    title: `Request ${r.id.slice(0, 8)}`,
    section: 'requests',
    ...(problem ? { status: problem.status } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>Request <code>${r.id.slice(0, 8)}</code> ${stateBadge(r.state)}${testMark(r.test_mode)}</h1>
      ${done && !problem ? html`<p class="success" role="status">${done}</p>` : ''} ${problemSummary(problem)}
      <div class="actions">
        ${r.state === 'draft' ? action('send', 'Send') : ''}
        ${r.state === 'sent' ? action('remind', 'Remind signers', 'secondary') : ''}
        ${r.state === 'draft' || r.state === 'sent' ? action('cancel', 'Cancel Request', 'danger') : ''}
        ${r.state === 'completed' ? html`<a class="button" href="${deps.base}/requests/${r.id}/download">Download executed PDF</a>` : ''}
      </div>
      <dl class="facts">
        <dt>Id</dt>
        <dd><code>${r.id}</code></dd>
        <dt>Contracts</dt>
        <dd>
          ${r.contracts.map((c, i) => html`${i > 0 ? ', ' : ''}<a href="${deps.base}/templates/${c}">template ${c}</a>`)}
        </dd>
        <dt>Created</dt>
        <dd>${time(r.created_at)}</dd>
        <dt>Sent</dt>
        <dd>${r.sent_at ? time(r.sent_at) : '—'}</dd>
        ${
          r.completed_at
            ? html`<dt>Completed</dt>
                <dd>${time(r.completed_at)}</dd>`
            : ''
        }
        ${
          r.cancelled_at
            ? html`<dt>Cancelled</dt>
                <dd>${time(r.cancelled_at)}</dd>`
            : ''
        }
        ${
          r.last_reminded_at
            ? html`<dt>Last reminded</dt>
                <dd>${time(r.last_reminded_at)} (${r.remind_count}×)</dd>`
            : ''
        }
        ${
          r.redirect_url
            ? html`<dt>Redirect URL</dt>
                <dd>${r.redirect_url}</dd>`
            : ''
        }
      </dl>
      <h2>Signers</h2>
      ${r.state === 'draft' ? html`<p class="hint">Execution URLs become live when the Request is sent.</p>` : ''}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Signer</th>
              <th scope="col">Contact</th>
              <th scope="col">State</th>
              <th scope="col">E-mail</th>
              <th scope="col">SMS</th>
              <th scope="col">Execution URL</th>
            </tr>
          </thead>
          <tbody>
            ${r.signers.map(signerRow)}
          </tbody>
        </table>
      </div>
      ${
        r.fields.length > 0
          ? html`<h2>Fields</h2>
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Field</th>
                      <th scope="col">Assigned to</th>
                      <th scope="col">Value</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${r.fields.map(
                      (f) =>
                        html`<tr>
                          <td>${f.name}</td>
                          <td>${f.assigned_to ?? html`<span class="error">unassigned</span>`}</td>
                          <td>${f.default_value === null ? '' : String(f.default_value)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
          : ''
      }`,
  });
};

export const requestRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/requests', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await dashboard(ctx, deps, visitor);
  });

  router.get('/requests/:id', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await requestPage(ctx, deps, visitor, ctx.params.id!);
  });

  for (const action of ['send', 'remind', 'cancel'] as const) {
    router.post(`/requests/:id/${action}`, async (ctx) => {
      const form = await posted(ctx, deps);
      if (form === undefined) return;
      const id = ctx.params.id!;
      const done = await form.visitor.api({
        method: 'POST',
        path: `/v1.1/requests/${segment(id)}/${action}`,
        codec: RequestView,
      });
      if (E.isLeft(done)) return requestPage(ctx, deps, form.visitor, id, done.left);
      ctx.status = 303;
      ctx.redirect(`${deps.base}/requests/${done.right.id}?done=${action}`);
    });
  }

  // The executed PDF, passed through from the API as it streams.
  router.get('/requests/:id/download', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    // An access token for this session (made by a first API call when there is none yet).
    const probe = await visitor.api({
      method: 'GET',
      path: `/v1.1/requests/${segment(ctx.params.id)}`,
      codec: RequestView,
    });
    if (E.isLeft(probe)) return problemPage(ctx, deps, visitor, 'requests', probe.left);
    const response = await deps.api.stream(
      `/v1.1/requests/${probe.right.id}/download`,
      visitor.accessToken(),
    );
    if (!response.ok || response.body === null) {
      await response.body?.cancel();
      return problemPage(ctx, deps, visitor, 'requests', {
        type: 'about:blank',
        title: 'Not available',
        status: response.status,
        code: 'download_failed',
        detail: 'The executed PDF is available once every signer has signed.',
      });
    }
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', response.headers.get('content-disposition') ?? 'attachment');
    ctx.body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  });
};
