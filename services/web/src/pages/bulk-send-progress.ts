import type Koa from 'koa';
import type { BulkSendView } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html } from '../html.js';
import { stateBadge, testMark, time } from '../layout.js';
import { dataTable } from '../table.js';
import { appPage } from './common.js';

const requestLink = (deps: WebDeps, id: string) =>
  html`<a href="${deps.base}/requests/${id}"
    ><code>${id.slice(0, 8)}</code><span class="visually-hidden"> (Request ${id})</span></a
  >`;

/**
 * A bulk send's progress as `GET /v1.1/bulk_sends/:id` tells it: the counts, each failed
 * row with its field-path errors, and the Requests made. No meta refresh: a Refresh link
 * (the page is cheap to load again).
 */
export const bulkProgressPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  bulk: BulkSendView,
): void => {
  const self = `${deps.base}/bulk-sends/${encodeURIComponent(bulk.id)}`;
  const counts: [string, number][] = [
    ['Rows', bulk.rows_total],
    ['Created', bulk.created],
    ...(bulk.send ? ([['Sent', bulk.sent]] as [string, number][]) : []),
    ['Failed', bulk.failed],
  ];
  appPage(ctx, deps, visitor, {
    title: 'Bulk send',
    section: 'requests',
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>Bulk send <code>${bulk.id.slice(0, 8)}</code>${testMark(bulk.test_mode)}</h1>
      <p role="status">
        ${stateBadge(bulk.state)}
        ${
          bulk.state === 'running'
            ? html`Working through the rows in the background. <a href="${self}">Refresh</a> to see how far it
                got.`
            : html`Done ${time(bulk.completed_at)}.`
        }
      </p>
      <dl class="facts panel">
        ${counts.map(
          ([label, n]) =>
            html`<dt>${label}</dt>
              <dd data-count="${label.toLowerCase()}">${n}</dd>`,
        )}
      </dl>
      <p class="hint">
        Started ${time(bulk.created_at)};
        ${bulk.send ? 'each Request is sent once made' : 'the Requests are kept as drafts'}.
      </p>
      ${
        bulk.failures.length === 0
          ? html`<p>No row failed${bulk.state === 'running' ? ' so far' : ''}.</p>`
          : dataTable({
              caption: 'Failed rows (row numbers from 0; CSV line = row + 2)',
              region: 'Failed rows',
              columns: ['Row', 'Errors', 'Request'],
              rows: bulk.failures.map((f) => [
                html`<code>rows[${f.row}]</code> <span class="hint">line ${f.row + 2}</span>`,
                html`<ul class="compact">
                  ${f.errors.map((e) => html`<li><code>${e.path}</code>: ${e.message}</li>`)}
                </ul>`,
                f.request_id === null ? '—' : requestLink(deps, f.request_id),
              ]),
            })
      }
      ${
        bulk.requests.length === 0
          ? ''
          : dataTable({
              caption: 'Requests made',
              region: 'Requests made',
              columns: ['Row', 'Request'],
              rows: bulk.requests.map((r) => [
                html`<code>rows[${r.row}]</code>`,
                requestLink(deps, r.request_id),
              ]),
            })
      }
      <p>
        <a href="${self}">Refresh</a> · <a href="${deps.base}/bulk-sends/new">Another bulk send</a> ·
        <a href="${deps.base}/bulk-sends">All bulk sends</a>
      </p>`,
  });
};
