import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { CANCEL_REASON_MAX, RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import type { FormFields } from '../forms.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary } from '../layout.js';
import { segment } from './common.js';

/**
 * **Cancel Request…** on a draft's or a sent Request's page, behind a disclosure so that one
 * click does not cancel it: `POST /v1.1/requests/:id/cancel` with an optional reason, kept in
 * the Request's history, and, once sent, an optional message telling its signers, by the
 * channels they were invited by (quoting the reason). Only what was filled in is sent: an
 * empty form posts no body, as the plain button did.
 */

export const CANCEL_DONE: Record<string, string> = {
  cancel: 'The Request was cancelled.',
  'cancel-told': 'The Request was cancelled, and its signers are being told.',
};

/** What the form sent, kept as typed so a refused form shows it again. */
export interface CancelForm {
  readonly reason: string;
  /** **Tell the signers** was ticked. */
  readonly notify: boolean;
}

export const cancelFormOf = (fields: FormFields): CancelForm => ({
  reason: fields.reason ?? '',
  notify: fields.notify_signers === 'true',
});

/**
 * The body of the cancel: the reason, white space around it dropped and line breaks as `\n`,
 * when one was typed; `notify_signers` when ticked; nothing at all (no body) when neither.
 */
export const cancelBodyOf = (
  form: CancelForm,
): { readonly reason?: string; readonly notify_signers?: true } | undefined => {
  const reason = form.reason.replace(/\r\n?/g, '\n').trim();
  const body = {
    ...(reason === '' ? {} : { reason }),
    ...(form.notify ? { notify_signers: true as const } : {}),
  };
  return Object.keys(body).length === 0 ? undefined : body;
};

/** The refusal first on the page, its reason's error linking to the field; it says nothing was cancelled. */
export const cancelSummary = (refused: ApiProblem): Html => {
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} The Request was not cancelled.`;
  return problemSummary({ ...refused, detail }, { reason: 'cancel-reason' }, { reason: 'Reason:' });
};

/**
 * The disclosure, while there is something to cancel (a draft or a sent Request): open, with
 * what was typed and the error at `reason` beside its field, when the API refused it. Only a
 * sent Request's signers were told of it, so only then can they be told it was cancelled.
 */
export const cancelSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: CancelForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, typed } = input;
  if (r.state !== 'draft' && r.state !== 'sent') return '';
  const sent = r.state === 'sent';
  const error = typed === undefined ? undefined : fieldErrors(input.problem).get('reason');
  return html`<details class="cancel" ${typed === undefined ? '' : html` open`}>
    <summary>Cancel Request…</summary>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <div class="field">
        <label for="cancel-reason">Reason (optional)</label>
        <p class="hint" id="cancel-reason-hint">
          ${
            sent
              ? 'Once cancelled, the signers’ links stop working. The reason is kept in the Request’s history and, when the signers are told, shown to them.'
              : 'Once cancelled, it can no longer be sent. The reason is kept in the Request’s history.'
          }
          Up to ${CANCEL_REASON_MAX.toLocaleString('en')} characters.
        </p>
        ${error ? html`<p class="error" id="cancel-reason-error">${error}</p>` : ''}
        <textarea
          id="cancel-reason"
          name="reason"
          rows="3"
          maxlength="${String(CANCEL_REASON_MAX)}"
          class="prose"
          aria-describedby="cancel-reason-hint${error ? ' cancel-reason-error' : ''}"
          ${error ? html` aria-invalid="true"` : ''}
        >
${typed?.reason ?? ''}</textarea>
      </div>
      ${
        sent
          ? html`<div class="field check">
              <input
                type="checkbox"
                id="cancel-notify"
                name="notify_signers"
                value="true"
                aria-describedby="cancel-notify-hint"
                ${typed?.notify === true ? html` checked` : ''}
              />
              <label for="cancel-notify"
                >Tell the signers it was cancelled (by e-mail or SMS, as they were invited)</label
              >
              <p class="hint" id="cancel-notify-hint">
                Only the signers who were sent their link: in a signing order, those whose turn has come.
              </p>
            </div>`
          : ''
      }
      <button type="submit" class="danger">Cancel Request</button>
    </form>
  </details>`;
};

/** A Request's page again, with the API's refusal of the cancel and the form as typed. */
export type RequestPageCancelling = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  problem?: ApiProblem,
  typed?: { readonly cancel?: CancelForm },
) => Promise<void>;

export const requestCancelRoutes = (
  router: Router,
  deps: WebDeps,
  requestPage: RequestPageCancelling,
): void => {
  router.post('/requests/:id/cancel', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = cancelFormOf(fields);
    const body = cancelBodyOf(form);
    const done = await visitor.api({
      method: 'POST',
      path: `/v1.1/requests/${segment(id)}/cancel`,
      ...(body === undefined ? {} : { body }),
      codec: RequestView,
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { cancel: form });
    // Only a Request that had been sent had signers to tell.
    const told = body?.notify_signers === true && done.right.sent_at !== null;
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}?done=${told ? 'cancel-told' : 'cancel'}`);
  });
};
