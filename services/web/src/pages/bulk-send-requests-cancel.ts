import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import {
  BulkSendRequestsCancelled,
  CANCEL_REASON_MAX,
  MAX_BULK_ROWS,
  type BulkSendView,
} from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import type { ProgressPage } from './bulk-send-cancel.js';
import { segment } from './common.js';
import { cancelBodyOf, cancelFormOf } from './request-cancel.js';

/**
 * Cancelling the Requests a completed bulk send made, all at once
 * (`POST /v1.1/bulk_sends/:id/cancel_requests`): those still a draft or waiting for
 * signatures are cancelled, their signing links stop working; those completed, declined or
 * expired stay as they are. A running one is refused by the API (stop it first), so the page
 * offers it only once completed, and only when it made a Request. An optional reason is kept in
 * each Request's history (ADR 3500); when ticked, each sent Request's signers are told (ADR 3530).
 */

/** The `?done=` key of the cancel; its counts are in `?cancelled=` and `?closed=`, `?told=1` when signers were told. */
export const REQUESTS_CANCELLED_DONE = 'requests-cancelled';

/** A count as the redirect put it in the query: digits only, and no more than a bulk send has rows. */
const countOf = (raw: unknown): number | undefined =>
  typeof raw === 'string' && /^\d{1,5}$/.test(raw) && Number(raw) <= MAX_BULK_ROWS ? Number(raw) : undefined;

const requests = (n: number): string => (n === 1 ? '1 Request' : `${n} Requests`);

/**
 * "Cancelled 12 Requests. 3 were closed already and stay as they are." after the cancel; the
 * counts are the API's answer. Nothing when the query is not one the cancel redirected to.
 */
export const requestsCancelledNotice = (ctx: Koa.Context, problem: unknown): Html | '' => {
  const cancelled = countOf(ctx.query.cancelled);
  const closed = countOf(ctx.query.closed);
  if (
    ctx.query.done !== REQUESTS_CANCELLED_DONE ||
    cancelled === undefined ||
    closed === undefined ||
    problem
  )
    return '';
  const told = ctx.query.told === '1' ? ', and their signers who had been sent a link are being told' : '';
  const said =
    cancelled === 0
      ? 'No Request was open: nothing was cancelled.'
      : `Cancelled ${requests(cancelled)}${told}.`;
  const left =
    closed === 0
      ? ''
      : closed === 1
        ? ' 1 was closed already and stays as it is.'
        : ` ${closed} were closed already and stay as they are.`;
  return html`<p class="success" role="status">${said}${left}</p>`;
};

/**
 * The cancel of the Requests made, behind a disclosure so that one click does not cancel
 * them: once the bulk send completed (while it runs the Stop disclosure is there instead),
 * and when it made at least one Request.
 */
export const cancelRequestsAction = (deps: WebDeps, visitor: Visitor, bulk: BulkSendView): Html | '' =>
  bulk.state !== 'completed' || bulk.requests.length === 0
    ? ''
    : html`<details>
        <summary>Cancel the Requests it made…</summary>
        <p class="hint" id="cancel-requests-hint">
          Every Request it made that is still a draft or waiting for signatures is cancelled, and its signing
          links stop working. Completed, declined and expired ones stay as they are.
        </p>
        <form method="post" action="${deps.base}/bulk-sends/${encodeURIComponent(bulk.id)}/cancel-requests">
          ${csrfField(visitor.csrf)}
          <div class="field">
            <label for="cancel-requests-reason">Reason (optional)</label>
            <p class="hint" id="cancel-requests-reason-hint">
              Kept in each Request’s history, and quoted to the signers when they are told. Up to
              ${CANCEL_REASON_MAX.toLocaleString('en')} characters.
            </p>
            <textarea
              id="cancel-requests-reason"
              name="reason"
              rows="3"
              maxlength="${String(CANCEL_REASON_MAX)}"
              class="prose"
              aria-describedby="cancel-requests-reason-hint"
            ></textarea>
          </div>
          <div class="field check">
            <input
              type="checkbox"
              id="cancel-requests-notify"
              name="notify_signers"
              value="true"
              aria-describedby="cancel-requests-notify-hint"
            />
            <label for="cancel-requests-notify"
              >Tell their signers they were cancelled (by e-mail or SMS, as they were invited)</label
            >
            <p class="hint" id="cancel-requests-notify-hint">
              Only the signers of each Request who were sent their link: in a signing order, those whose turn
              has come. A draft’s signers were never told of it.
            </p>
          </div>
          <button type="submit" class="danger" aria-describedby="cancel-requests-hint">
            Cancel its open Requests
          </button>
        </form>
      </details>`;

export const bulkCancelRequestsRoutes = (router: Router, deps: WebDeps, progressPage: ProgressPage): void => {
  // Cancelling again is harmless (it cancels what is still open); a refusal shows on the progress page.
  router.post('/bulk-sends/:id/cancel-requests', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const id = ctx.params.id!;
    // As a Request's own cancel: a reason typed, its line breaks as `\n`, and the box ticked; neither posts no body.
    const body = cancelBodyOf(cancelFormOf(form.fields));
    const done = await form.visitor.api({
      method: 'POST',
      path: `/v1.1/bulk_sends/${segment(id)}/cancel_requests`,
      ...(body === undefined ? {} : { body }),
      codec: BulkSendRequestsCancelled,
    });
    if (E.isLeft(done)) return progressPage(ctx, deps, form.visitor, id, done.left);
    const { bulk_send_id, cancelled, already_closed } = done.right;
    ctx.status = 303;
    ctx.redirect(
      `${deps.base}/bulk-sends/${encodeURIComponent(bulk_send_id)}` +
        `?done=${REQUESTS_CANCELLED_DONE}&cancelled=${cancelled}&closed=${already_closed}` +
        (body?.notify_signers === true && cancelled > 0 ? '&told=1' : ''),
    );
  });
};
