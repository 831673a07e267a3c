import * as E from 'fp-ts/lib/Either.js';
import { BulkSendView } from '@esign/contracts';
import type { WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { problemSummary, stateBadge, testMark, time } from '../layout.js';
import { dataTable } from '../table.js';
import { CANCEL_DONE, cancelAction, type ProgressPage } from './bulk-send-cancel.js';
import { cancelRequestsAction, requestsCancelledNotice } from './bulk-send-requests-cancel.js';
import { appPage, doneNotice, problemPage, segment } from './common.js';

const requestLink = (deps: WebDeps, id: string) =>
  html`<a href="${deps.base}/requests/${id}"
    ><code>${id.slice(0, 8)}</code><span class="visually-hidden"> (Request ${id})</span></a
  >`;

/**
 * Where it stands, in words: still working (or, once cancelled, stopping: ADR 3450) with
 * the Refresh link, or done, and when it was cancelled.
 */
const stateLine = (bulk: BulkSendView, self: string): Html => {
  const cancelled = bulk.cancelled_at === null ? '' : html`Cancelled ${time(bulk.cancelled_at)}.`;
  if (bulk.state === 'completed') return html`${cancelled} Done ${time(bulk.completed_at)}.`;
  return bulk.cancelled_at === null
    ? html`Working through the rows in the background. <a href="${self}">Refresh</a> to see how far it got.`
    : html`${cancelled} <span class="hint">Stopping: the rows being made finish, then it completes.</span>
        <a href="${self}">Refresh</a>`;
};

/**
 * A bulk send's progress as `GET /v1.1/bulk_sends/:id` tells it: the counts, each failed
 * row with its field-path errors, and the Requests made; with the API's refusal of an action
 * on it (cancel; once completed, cancel the Requests it made). No meta refresh: a Refresh
 * link (the page is cheap to load again).
 */
export const bulkProgressPage: ProgressPage = async (ctx, deps, visitor, id, problem) => {
  const found = await visitor.api({
    method: 'GET',
    path: `/v1.1/bulk_sends/${segment(id)}`,
    codec: BulkSendView,
  });
  if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'requests', found.left);
  const bulk = found.right;
  const self = `${deps.base}/bulk-sends/${encodeURIComponent(bulk.id)}`;
  const counts: [string, number][] = [
    ['Rows', bulk.rows_total],
    ['Created', bulk.created],
    ...(bulk.send ? ([['Sent', bulk.sent]] as [string, number][]) : []),
    ['Failed', bulk.failed],
    // Left unmade by the cancel: with Created and Failed, every row once it completes.
    ...(bulk.cancelled_at === null ? [] : ([['Cancelled', bulk.cancelled]] as [string, number][])),
  ];
  appPage(ctx, deps, visitor, {
    title: 'Bulk send',
    section: 'requests',
    ...(problem ? { status: problem.status } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>Bulk send <code>${bulk.id.slice(0, 8)}</code>${testMark(bulk.test_mode)}</h1>
      ${doneNotice(ctx, CANCEL_DONE, problem)} ${requestsCancelledNotice(ctx, problem)}
      ${problemSummary(problem)}
      <p role="status">${stateBadge(bulk.state)} ${stateLine(bulk, self)}</p>
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
      ${cancelAction(deps, visitor, bulk)} ${cancelRequestsAction(deps, visitor, bulk)}
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
      ${
        bulk.created === 0
          ? ''
          : html`<p>
              <a href="${deps.base}/requests?bulk_send_id=${encodeURIComponent(bulk.id)}"
                >The Requests it made, with their states</a
              >
            </p>`
      }
      <p>
        <a href="${self}">Refresh</a> · <a href="${deps.base}/bulk-sends/new">Another bulk send</a> ·
        <a href="${deps.base}/bulk-sends">All bulk sends</a>
      </p>`,
  });
};
