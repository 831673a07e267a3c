import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { ContractView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { switchSite, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors } from '../layout.js';
import { keyShownAgain, segment } from './common.js';
import type { CopyTyped, TemplatePage } from './template-copy.js';

/**
 * **Copy to another Site** on a template's page, for a visitor who reaches two Sites or
 * more: `POST /v1.1/contracts/:id/copy` with `{ site_id }` makes a draft with the
 * template's content, under the same name, in the Site chosen (how a template tried out
 * in a test Site goes to the production one). That Site becomes the current one, as the
 * header's switch makes it, and the page shown is the copy's. The form has its own
 * Idempotency-Key, kept when a refusal is shown again, like Duplicate's (template-copy.ts).
 */

const ID = 'copy-site';

/** Where the summary of a refusal of Copy to Site links its Site's error to, and what it calls it. */
export const copySiteSummary = (
  typed: CopyTyped | undefined,
): [Record<string, string>, Record<string, string>] =>
  typed?.toSite === undefined ? [{}, {}] : [{ site_id: ID }, { site_id: 'Site to copy to' }];

/** The form, below the template's actions; nothing when the visitor has no other Site. */
export const copyToSiteAction = (
  deps: WebDeps,
  visitor: Visitor,
  c: ContractView,
  problem?: ApiProblem,
  typed?: CopyTyped,
): Html | '' => {
  const others = visitor.me.sites.filter((s) => s.id !== c.site_id);
  if (visitor.me.sites.length < 2 || others.length === 0) return '';
  const refused = typed?.toSite === undefined ? undefined : problem;
  const error = fieldErrors(refused).get('site_id');
  const key = keyShownAgain(refused === undefined ? undefined : typed?.idempotencyKey, refused);
  const chosen = typed?.toSite ?? '';
  return html`<h2>Copy to another Site</h2>
    <form method="post" action="${deps.base}/templates/${c.id}/copy-to-site">
      ${csrfField(visitor.csrf)}
      <input type="hidden" name="idempotency_key" value="${key}" />
      <div class="field">
        <label for="${ID}">Site to copy to</label>
        <p class="hint" id="${ID}-hint">
          A draft with this template’s content is made in the Site you choose, under the same name; publish it
          there to use it. How a template tried out in a test Site goes to the production one.
        </p>
        ${error === undefined ? '' : html`<p class="error" id="${ID}-error">${error}</p>`}
        <select
          id="${ID}"
          name="site_id"
          aria-describedby="${ID}-hint${error === undefined ? '' : ` ${ID}-error`}"
          ${error === undefined ? '' : html` aria-invalid="true"`}
        >
          ${others.map(
            (s) =>
              html`<option value="${String(s.id)}" ${chosen === String(s.id) ? html` selected` : ''}>
                ${s.name} (${String(s.id)})
              </option>`,
          )}
        </select>
      </div>
      <button type="submit" class="secondary">Copy to Site</button>
    </form>`;
};

/**
 * `POST /templates/:id/copy-to-site`: the copy made, its Site made the current one, on the
 * copy's page; a refusal, on the source's, at the select.
 */
export const templateCopySiteRoutes = (router: Router, deps: WebDeps, templatePage: TemplatePage): void => {
  router.post('/templates/:id/copy-to-site', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const id = ctx.params.id!;
    const key = form.fields.idempotency_key ?? '';
    const toSite = (form.fields.site_id ?? '').trim();
    const made = await form.visitor.api({
      method: 'POST',
      path: `/v1.1/contracts/${segment(id)}/copy`,
      // Not a whole number: sent as typed, for the API to say what is wrong with it.
      body: { site_id: /^[1-9][0-9]{0,14}$/.test(toSite) ? Number(toSite) : toSite },
      codec: ContractView,
      ...(key === '' ? {} : { idempotencyKey: key }),
    });
    if (E.isLeft(made))
      return templatePage(ctx, deps, form.visitor, id, made.left, { idempotencyKey: key, toSite });
    switchSite(ctx, deps, form.visitor, String(made.right.site_id));
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates/${made.right.id}?done=copied_to_site`);
  });
};
