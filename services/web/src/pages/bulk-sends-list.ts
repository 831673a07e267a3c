import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { BulkSendList, type BulkSendSummary } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { stateBadge, testMark, time } from '../layout.js';
import { dataTable } from '../table.js';
import { appPage, noSitePage, problemPage } from './common.js';
import {
  apiBulkFilterParams,
  bulkSendsEmptyNotice,
  bulkSendsFilterForm,
  bulkSendsFilterOf,
  bulkSendsLink,
  bulkSendsStatus,
  startedInputOf,
} from './bulk-sends-filter.js';
import { templateNameOf } from './requests-filter.js';

/**
 * `/app/bulk-sends`: the current Site's bulk sends (ADR 3440), newest first, a page at a
 * time, each in counts and linking to its progress page, which has its failed rows and the
 * Requests it made; filtered by state, by a template its page names, and by the days started in
 * (bulk-sends-filter; a date in error is said next to its field and not applied).
 */

const PER_PAGE = 50;

/**
 * The Started column: when it was started, linking to its progress page; the short id
 * beneath, as its page's heading shows it, and the whole id in the link's name, so that two
 * started in the same second are told apart.
 */
const startedCell = (deps: WebDeps, b: BulkSendSummary): Html =>
  html`<a href="${deps.base}/bulk-sends/${encodeURIComponent(b.id)}"
      >${time(b.created_at)}<span class="visually-hidden"> (bulk send ${b.id})</span></a
    ><br /><code class="hint">${b.id.slice(0, 8)}</code>`;

/**
 * The State cell: running or completed, and cancelled (ADR 3450) when it was, whose
 * Cancelled count is the rows it left unmade; a dash there when it was not cancelled.
 */
const stateCell = (b: BulkSendSummary): Html =>
  html`${stateBadge(b.state)}${
    b.cancelled_at === null ? '' : html` <span class="state state-cancelled">cancelled</span>`
  }${testMark(b.test_mode)}`;

export const bulkSendListPage = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'requests');
  const pageNo = /^[1-9][0-9]{0,5}$/.test(String(ctx.query.page)) ? Number(ctx.query.page) : 1;
  const filter = bulkSendsFilterOf(ctx);
  const started = startedInputOf(ctx);
  const query = new URLSearchParams({
    page: String(pageNo),
    per_page: String(PER_PAGE),
    ...apiBulkFilterParams(filter),
  });
  const [list, templateName] = await Promise.all([
    visitor.api({
      method: 'GET',
      path: `/v1.1/sites/${site.id}/bulk_sends?${query.toString()}`,
      codec: BulkSendList,
    }),
    templateNameOf(visitor, filter),
  ]);
  if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'requests', list.left);
  const { data, total_count: total, has_more: more } = list.right;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const link = (p: number) => bulkSendsLink(deps, filter, p);
  appPage(ctx, deps, visitor, {
    title: 'Bulk sends',
    section: 'requests',
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>Bulk sends <span class="hint">on ${site.name}</span></h1>
      <div class="actions">
        <a class="button" href="${deps.base}/bulk-sends/new">Bulk send from a CSV file</a>
      </div>
      <p>
        Each bulk send made one Request per row of a CSV file. Open one for its failed rows and the Requests
        it made.
      </p>
      ${bulkSendsFilterForm(deps, filter, started)} ${bulkSendsStatus(deps, filter, total, templateName)}
      ${
        data.length === 0
          ? bulkSendsEmptyNotice(deps, filter, pageNo, total, templateName)
          : html`${dataTable({
                caption: html`Bulk sends of ${site.name}, newest first`,
                captionHidden: true,
                region: 'Bulk sends',
                columns: ['Started', 'Templates', 'Rows', 'Made', 'Sent', 'Failed', 'Cancelled', 'State'],
                rows: data.map((b) => [
                  startedCell(deps, b),
                  b.contracts.length === 0 ? '—' : b.contracts.map((c) => c.name).join(', '),
                  b.rows_total,
                  b.created,
                  b.send ? b.sent : html`<span class="hint">not sent</span>`,
                  b.failed,
                  b.cancelled_at === null ? '—' : b.cancelled,
                  stateCell(b),
                ]),
              })}
              <nav class="pager" aria-label="Pages">
                ${pageNo > 1 ? html`<a href="${link(pageNo - 1)}" rel="prev">Previous page</a>` : ''}
                <span>Page ${pageNo} of ${pages}</span>
                ${more ? html`<a href="${link(pageNo + 1)}" rel="next">Next page</a>` : ''}
              </nav>`
      }`,
  });
};
