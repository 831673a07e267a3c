import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { BulkSendView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import { segment } from './common.js';

/**
 * Cancelling a running bulk send (ADR 3450): no more of its rows are made. The rows a worker
 * is making at that moment still finish, and the Requests already made stay as they are
 * (each is cancelled on its own page), so the page says so before the click.
 */

export const CANCEL_DONE: Record<string, string> = {
  cancelled: 'Cancelled: no more rows are made. Rows being made at that moment finish.',
};

/** The progress page of bulk send `id`, read again, with the API's refusal of an action on it. */
export type ProgressPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  problem?: ApiProblem,
) => Promise<void>;

/**
 * The cancel, behind a disclosure so that one click does not stop a bulk send, while there
 * is something to stop: running and not cancelled yet.
 */
export const cancelAction = (deps: WebDeps, visitor: Visitor, bulk: BulkSendView): Html | '' =>
  bulk.state !== 'running' || bulk.cancelled_at !== null
    ? ''
    : html`<details>
        <summary>Stop this bulk send…</summary>
        <p class="hint" id="cancel-hint">
          No more of its rows are made. Rows being made at this moment finish. Requests already made are not
          cancelled: once it completes, cancel them all on this page.
        </p>
        <form
          method="post"
          action="${deps.base}/bulk-sends/${encodeURIComponent(bulk.id)}/cancel"
          class="inline"
        >
          ${csrfField(visitor.csrf)}
          <button type="submit" class="danger" aria-describedby="cancel-hint">
            Cancel the remaining rows
          </button>
        </form>
      </details>`;

export const bulkCancelRoutes = (router: Router, deps: WebDeps, progressPage: ProgressPage): void => {
  // Cancelling again is harmless (the API answers the same); a refusal shows on the progress page.
  router.post('/bulk-sends/:id/cancel', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const id = ctx.params.id!;
    const done = await form.visitor.api({
      method: 'POST',
      path: `/v1.1/bulk_sends/${segment(id)}/cancel`,
      codec: BulkSendView,
    });
    if (E.isLeft(done)) return progressPage(ctx, deps, form.visitor, id, done.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/bulk-sends/${encodeURIComponent(done.right.id)}?done=cancelled`);
  });
};
