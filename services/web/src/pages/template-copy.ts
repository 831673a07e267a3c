import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { ContractView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import { keyShownAgain, segment } from './common.js';
import { inEditor } from './template-editor.js';

/**
 * **Duplicate** on every template's page (ADR 3260): a published template never changes
 * (ADR 3240), so correcting one means a draft copy of it, edited and published, and the
 * old one archived (ADR 3250). `POST /v1.1/contracts/:id/copy` is sent without a body, so
 * the copy is named as the API names it (`<name> (copy)`); the form carries its own
 * Idempotency-Key, so a second click makes no second copy.
 */

/**
 * What duplicating did, by the `?done=` key of its redirect, on the new draft's page:
 * `copied` by Duplicate, `copied_to_site` by Copy to Site (template-copy-site.ts), which
 * names the Site (one of `sites`, the visitor's) the copy was made in.
 */
export const copyDone = (
  c: ContractView,
  sites: readonly { readonly id: number; readonly name: string }[] = [],
): Record<string, string> => {
  const next = inEditor(c)
    ? 'Edit it, then publish it to use it in Requests.'
    : 'Publish it to use it in Requests.';
  const site = sites.find((s) => s.id === c.site_id)?.name ?? `Site ${c.site_id}`;
  return {
    copied: `A draft copy was made. ${next}`,
    copied_to_site: `A draft copy was made in ${site}. ${next}`,
  };
};

/**
 * The form's key, kept when the page shows a refusal of it again (see `keyShownAgain`);
 * `toSite`, the Site chosen, when the form refused was Copy to Site rather than Duplicate.
 */
export interface CopyTyped {
  readonly idempotencyKey: string;
  readonly toSite?: string;
}

/**
 * The Duplicate action, below the template's facts, with (on a published template in use)
 * how a published template is corrected.
 */
export const copyAction = (
  deps: WebDeps,
  visitor: Visitor,
  c: ContractView,
  problem?: ApiProblem,
  typed?: CopyTyped,
): Html => {
  const inUse = c.state === 'published' && c.archived_at === null;
  const key = keyShownAgain(typed?.toSite === undefined ? typed?.idempotencyKey : undefined, problem);
  return html`<div class="actions">
      <form method="post" action="${deps.base}/templates/${c.id}/copy" class="inline">
        ${csrfField(visitor.csrf)}
        <input type="hidden" name="idempotency_key" value="${key}" />
        <button type="submit" class="secondary" ${inUse ? html`aria-describedby="copy-hint"` : ''}>
          Duplicate
        </button>
      </form>
    </div>
    ${
      inUse
        ? html`<p class="hint" id="copy-hint">
            A published template never changes. To change it, duplicate it, edit the draft copy and publish
            that; then archive this one.
          </p>`
        : ''
    }`;
};

/** The template's page, showing a refusal (and the form as it was sent). */
export type TemplatePage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  problem?: ApiProblem,
  typed?: CopyTyped,
) => Promise<void>;

/** `POST /templates/:id/copy`: the copy made, on its own page; a refusal, on the source's. */
export const templateCopyRoutes = (router: Router, deps: WebDeps, templatePage: TemplatePage): void => {
  router.post('/templates/:id/copy', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const id = ctx.params.id!;
    const key = form.fields.idempotency_key ?? '';
    const made = await form.visitor.api({
      method: 'POST',
      path: `/v1.1/contracts/${segment(id)}/copy`,
      codec: ContractView,
      ...(key === '' ? {} : { idempotencyKey: key }),
    });
    if (E.isLeft(made)) return templatePage(ctx, deps, form.visitor, id, made.left, { idempotencyKey: key });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates/${made.right.id}?done=copied`);
  });
};
