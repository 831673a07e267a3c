import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { RequestList, RequestView } from '@esign/contracts';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { stateBadge, testMark, time } from '../layout.js';
import { appPage, noSitePage, problemPage, searchOf, segment } from './common.js';
import { pdfRoutes } from './pdf-download.js';
import { requestNewRoutes } from './request-new.js';
import { enteredCsvRoutes } from './request-entered.js';
import { requestPage } from './request-page.js';
import { settingsBodyOf, settingsFormOf, typedProblem } from './request-settings.js';
import { contactBodyOf, contactFormOf, contactOutcome } from './request-signer-contact.js';
import { draftContactRoutes } from './request-draft-contact.js';
import { draftRoutes } from './request-draft-routes.js';
import { draftSignerRoutes } from './request-draft-signer-routes.js';
import { draftContractRoutes } from './request-draft-contract-routes.js';
import { requestCopyRoutes } from './request-copy.js';
import { requestCancelRoutes } from './request-cancel.js';
import { requestReplaceRoutes } from './request-signer-replace.js';
import { createdFields, createdInputOf } from './requests-dates.js';
import {
  apiFilterParams,
  emptyListNotice,
  filterStatus,
  hiddenFilter,
  listLink,
  requestsFilterOf,
  STATES,
  templateNameOf,
  titleSearchField,
} from './requests-filter.js';

const PER_PAGE = 20;

/** The Request column: its title linking to it, its short id beneath; without a title, the short id. */
const requestCell = (deps: WebDeps, r: RequestView): Html =>
  r.title === null
    ? html`<a href="${deps.base}/requests/${r.id}"
        ><code>${r.id.slice(0, 8)}</code><span class="visually-hidden"> (Request ${r.id})</span></a
      >`
    : html`<a href="${deps.base}/requests/${r.id}"
          >${r.title}<span class="visually-hidden"> (Request ${r.id})</span></a
        ><br /><code class="hint">${r.id.slice(0, 8)}</code>`;

const dashboard = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'requests');
  const pageNo = /^[1-9][0-9]{0,5}$/.test(String(ctx.query.page)) ? Number(ctx.query.page) : 1;
  // A state; the signer from the Signers page (ADR 3200); the template from its page; the
  // days created in (a date in error is said next to its field and not applied).
  const filter = requestsFilterOf(ctx);
  const created = createdInputOf(ctx);
  const { state } = filter;
  const query = new URLSearchParams({
    page: String(pageNo),
    per_page: String(PER_PAGE),
    ...apiFilterParams(filter),
  });
  const [list, templateName] = await Promise.all([
    visitor.api({
      method: 'GET',
      path: `/v1.1/sites/${site.id}/requests?${query.toString()}`,
      codec: RequestList,
    }),
    templateNameOf(visitor, filter),
  ]);
  if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'requests', list.left);
  const pages = Math.max(1, Math.ceil(list.right.total_count / PER_PAGE));
  const link = (p: number) => listLink(deps, filter, p);
  appPage(ctx, deps, visitor, {
    title: 'Requests',
    section: 'requests',
    body: html` <h1>Requests <span class="hint">on ${site.name}</span></h1>
      <div class="actions">
        <a class="button" href="${deps.base}/requests/new">New Request</a>
        <a class="button secondary" href="${deps.base}/bulk-sends/new">Bulk send from a CSV file</a>
        <a class="button secondary" href="${deps.base}/bulk-sends">Bulk sends</a>
        <a class="button secondary" href="${deps.base}/signers">Signers</a>
        <a class="button secondary" href="${deps.base}/activity">Activity</a>
      </div>
      <form
        method="get"
        action="${deps.base}/requests"
        class="bar panel"
        role="search"
        aria-label="Filter Requests"
      >
        ${titleSearchField(filter.q, searchOf(ctx.query.q).cut)}
        <label for="state">State</label>
        <select id="state" name="state">
          <option value="">All states</option>
          ${STATES.map((s) => html`<option value="${s}" ${s === state ? html` selected` : ''}>${s}</option>`)}
        </select>
        ${createdFields(created)} ${hiddenFilter(filter)}
        <button type="submit" class="secondary">Filter</button>
      </form>
      ${filterStatus(deps, filter, list.right.total_count, templateName)}
      ${
        list.right.data.length === 0
          ? emptyListNotice(deps, site.id, filter, templateName)
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
                        <td>${requestCell(deps, r)}</td>
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

export const requestRoutes = (router: Router, deps: WebDeps): void => {
  // Before `/requests/:id`, which would take `new` for an id.
  requestNewRoutes(router, deps);

  router.get('/requests', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await dashboard(ctx, deps, visitor);
  });

  router.get('/requests/:id', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await requestPage(ctx, deps, visitor, ctx.params.id!);
  });

  for (const action of ['send', 'remind'] as const) {
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

  // A signer's new Execution URL, optionally sent to them (ADR 1321).
  router.post('/requests/:id/new-link', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const id = ctx.params.id!;
    const notify = form.fields.notify === 'true';
    const key = form.fields.idempotency_key ?? '';
    const done = await form.visitor.api({
      method: 'POST',
      path: `/v1.1/requests/${segment(id)}/signers/${segment(form.fields.signer_id)}/execution_url`,
      body: { notify },
      codec: RequestView,
      ...(key === '' ? {} : { idempotencyKey: key }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, form.visitor, id, done.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}?done=${notify ? 'new-link-sent' : 'new-link'}`);
  });

  // How a signer who has not signed is reached: another address, number or channels (ADR 3140).
  router.post('/requests/:id/signer-contact', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = contactFormOf(fields);
    const done = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/requests/${segment(id)}/signers/${segment(form.signerId)}`,
      body: contactBodyOf(form),
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { correction: form });
    const after = done.right.signers.find((s) => s.signer_id === form.signerId);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}?done=${contactOutcome(fields, form, after)}`);
  });

  draftContactRoutes(router, deps);
  draftRoutes(router, deps);
  draftSignerRoutes(router, deps);
  draftContractRoutes(router, deps);
  requestCopyRoutes(router, deps, requestPage);
  // What the signers entered, as a CSV file (ADR 3750).
  enteredCsvRoutes(router, deps);
  // Cancel Request…, with its optional reason and message to the signers.
  requestCancelRoutes(router, deps, requestPage);
  // Replace signer…: someone else signs in a pending signer's place (ADR 3550).
  requestReplaceRoutes(router, deps, requestPage);

  // An open Request's expiry and automatic reminders (ADR 3150): only what changed is sent.
  router.post('/requests/:id/settings', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = settingsFormOf(fields);
    const { body, errors } = settingsBodyOf(form);
    if (errors.size > 0) return requestPage(ctx, deps, visitor, id, typedProblem(errors), { settings: form });
    if (Object.keys(body).length === 0) {
      ctx.status = 303;
      return ctx.redirect(`${deps.base}/requests/${segment(id)}?done=settings-same`);
    }
    const done = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/requests/${segment(id)}`,
      body,
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { settings: form });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}?done=settings`);
  });

  // The executed PDF, passed through from the API as it streams: saved, or shown in the
  // Request's page. The API says why not (not completed yet, or a seal that cannot be made now).
  pdfRoutes(router, deps, {
    path: '/requests/:id/download',
    section: 'requests',
    read: (id) => `/v1.1/requests/${id}`,
    codec: RequestView,
    pdf: (r) => `/v1.1/requests/${r.id}/download`,
    fallback: {
      title: 'Not available',
      code: 'download_failed',
      detail: 'The executed PDF is available once every signer has signed.',
    },
  });
};
