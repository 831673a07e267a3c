import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import { keyShownAgain, segment } from './common.js';

/**
 * **Copy to a new draft** on every Request's page: `POST /v1.1/requests/:id/copy` makes a
 * draft of the same contracts, signers, fields, render data, CC, redirect URL and reminder
 * interval, from a Request in any state (a declined, expired or cancelled one is sent again
 * this way); on a test-mode Request, **Copy as a live draft** sends `{ "test_mode": false }`.
 * Each form carries its own Idempotency-Key, so a second click makes no second draft.
 */

/** The refused copy form, as sent: its key, kept when the page shows the refusal (`keyShownAgain`). */
export interface CopyForm {
  readonly idempotencyKey: string;
  /** Copy as a live draft, rather than Copy to a new draft. */
  readonly live: boolean;
}

const FINAL_STATES: readonly string[] = ['declined', 'expired', 'cancelled'];

/** The copy buttons, among the page's other top actions. */
export const copyButtons = (
  deps: WebDeps,
  visitor: Visitor,
  r: RequestView,
  problem?: ApiProblem,
  typed?: CopyForm,
): Html => {
  const form = (live: boolean, label: string, hint: string | undefined) => {
    const key = keyShownAgain(typed?.live === live ? typed.idempotencyKey : undefined, problem);
    return html`<form method="post" action="${deps.base}/requests/${r.id}/copy" class="inline">
      ${csrfField(visitor.csrf)}
      <input type="hidden" name="idempotency_key" value="${key}" />
      ${live ? html`<input type="hidden" name="test_mode" value="false" />` : ''}
      <button type="submit" class="secondary" ${hint ? html`aria-describedby="${hint}"` : ''}>
        ${label}
      </button>
    </form>`;
  };
  return html`${form(false, 'Copy to a new draft', FINAL_STATES.includes(r.state) ? 'copy-hint' : undefined)}
  ${r.test_mode ? form(true, 'Copy as a live draft', 'copy-live-hint') : ''}`;
};

/** What the copy buttons do, where it is worth saying: below the page's top actions. */
export const copyHints = (r: RequestView): Html =>
  html`${
    FINAL_STATES.includes(r.state)
      ? html`<p class="hint" id="copy-hint">
          Its state is final: copy it to a new draft to send it again, with the same contracts, signers and
          fields.
        </p>`
      : ''
  }
  ${
    r.test_mode
      ? html`<p class="hint" id="copy-live-hint">
          <strong>Copy as a live draft</strong> makes a draft that is not in test mode: once it is sent, its
          messages are really sent to the signers.
        </p>`
      : ''
  }`;

/**
 * What the copy did, on the new draft's page, from the redirect's `?done=copied` (or
 * `copied-live`): told only on a draft that is a copy, whose source its facts link to
 * ("Copied from", ADR 3410) on every visit.
 */
export const copiedNotice = (ctx: Koa.Context, r: RequestView, problem: unknown): Html | '' => {
  const { done } = ctx.query;
  if (problem || r.state !== 'draft' || r.copied_from === null) return '';
  if (done !== 'copied' && done !== 'copied-live') return '';
  return html`<p class="success" role="status">
    The Request was copied to this new ${done === 'copied-live' ? 'live ' : ''}draft: check it, set an expiry
    if it needs one, and send
    it.${done === 'copied-live' ? ' Once it is sent, its messages are really sent.' : ''}
  </p>`;
};

const CONTRACT_AT = /^contracts\[(\d+)\]$/;
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'];

/**
 * One error of a refused copy in words, never by its API path: an error at `contracts[i]`
 * names the Request's i-th contract template (linked, to unarchive it, say).
 */
const errorInWords = (deps: WebDeps, r: RequestView, e: { path: string; message: string }): Html => {
  const sentence = (text: string) =>
    `${text.replace(/^./, (c) => c.toUpperCase())}${/[.!?]$/.test(text) ? '' : '.'}`;
  const at = CONTRACT_AT.exec(e.path);
  const i = at ? Number(at[1]) : -1;
  const template = r.contracts[i];
  if (template === undefined) return html`<li>${sentence(e.message)}</li>`;
  // "contract template 5 is archived: …" reads as the link followed by the rest.
  const named = new RegExp(`^contract template ${String(template)}\\b`, 'i');
  const link = html`<a href="${deps.base}/templates/${String(template)}"
    >Contract template ${String(template)}</a
  >`;
  return named.test(e.message)
    ? html`<li>${link}${sentence(e.message.replace(named, ''))}</li>`
    : html`<li>
        ${link} (the ${ORDINALS[i] ?? `${String(i + 1)}th`} contract):
        ${e.message}${/[.!?]$/.test(e.message) ? '' : '.'}
      </li>`;
};

/** A refused copy, first on the page: what the API said, and that no draft was made. */
export const copySummary = (deps: WebDeps, refused: ApiProblem, r: RequestView): Html => {
  const said = refused.detail ?? refused.title;
  const errors = refused.errors ?? [];
  return html`<div class="errors" role="alert" tabindex="-1" id="problem">
    <h2>${refused.status === 429 ? 'Please wait' : 'There is a problem'}</h2>
    <p>${said}${/[.!?]$/.test(said) ? '' : '.'} No draft was made.</p>
    ${
      errors.length > 0
        ? html`<ul>
            ${errors.map((e) => errorInWords(deps, r, e))}
          </ul>`
        : ''
    }
  </div>`;
};

/** The Request's page, showing a refused copy (and the form's key). */
export type RequestPageShowing = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  problem?: ApiProblem,
  typed?: { readonly copy?: CopyForm },
) => Promise<void>;

/** `POST /requests/:id/copy`: the new draft, on its own page; a refusal, on the source's. */
export const requestCopyRoutes = (router: Router, deps: WebDeps, requestPage: RequestPageShowing): void => {
  router.post('/requests/:id/copy', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const id = ctx.params.id!;
    const key = form.fields.idempotency_key ?? '';
    const live = form.fields.test_mode === 'false';
    const made = await form.visitor.api({
      method: 'POST',
      path: `/v1.1/requests/${segment(id)}/copy`,
      ...(live ? { body: { test_mode: false } } : {}),
      codec: RequestView,
      ...(key === '' ? {} : { idempotencyKey: key }),
    });
    if (E.isLeft(made))
      return requestPage(ctx, deps, form.visitor, id, made.left, { copy: { idempotencyKey: key, live } });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${made.right.id}?done=${live ? 'copied-live' : 'copied'}`);
  });
};
