import type { RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary } from '../layout.js';
import { keyShownAgain } from './common.js';
import { renderDataField } from './request-values.js';

/**
 * **Render data** on a draft's page (ADR 3220): the values merged into its HTML contracts,
 * as `token=value` lines (as on New Request), replaced whole with
 * `PATCH /v1.1/requests/:id` `{ render_data }` (the route: `request-draft-routes.ts`).
 * The form carries its own Idempotency-Key and the lines the page showed: lines that mean
 * the same data ask the API nothing.
 */

export interface RenderDataForm {
  readonly idempotencyKey: string;
  readonly text: string;
  /** The lines the page showed. */
  readonly was: string;
}

export const renderDataFormOf = (fields: FormFields): RenderDataForm => ({
  idempotencyKey: fields.idempotency_key ?? '',
  text: fields.render_data ?? '',
  was: fields.was_render_data ?? '',
});

/** A Request's render_data as the field shows it: one `token=value` line each. */
const linesOf = (data: Readonly<Record<string, string>>): string =>
  Object.entries(data)
    .map(([token, value]) => `${token}=${value}`)
    .join('\n');

export const sameRenderData = (
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

export const RENDER_DATA_DONE: Record<string, string> = {
  'render-data': 'The render data was saved: the Request’s signers will see these values when it is sent.',
  'render-data-same': 'The render data was already as given: nothing was changed.',
};

/** The refusal first on the page, beside the field; it says that nothing was changed. */
export const renderDataSummary = (refused: ApiProblem): Html => {
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} The render data was not changed.`;
  return problemSummary({ ...refused, detail }, { render_data: 'render_data' });
};

/** A draft's section, prefilled with its render_data, or with what was typed when it was refused. */
export const renderDataSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: RenderDataForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, typed, problem: refused } = input;
  if (r.state !== 'draft') return '';
  const shown = linesOf(r.render_data);
  // An error at `render_data.<token>` belongs to the one field too.
  const errors = typed === undefined ? new Map<string, string>() : fieldErrors(refused);
  const error = [...errors].filter(([path]) => path === 'render_data' || path.startsWith('render_data.'));
  return html`<section class="panel" aria-labelledby="render-data-title">
    <h2 id="render-data-title">Render data</h2>
    <p class="hint">
      Until the Request is sent you can change the values its signers will see; once it is sent they are
      fixed. A line you remove removes that value.
    </p>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="idempotency_key" value="${keyShownAgain(typed?.idempotencyKey, refused)}" />
      <input type="hidden" name="was_render_data" value="${shown}" />
      ${renderDataField(
        typed?.text ?? shown,
        error.length === 0
          ? undefined
          : error
              .map(([path, message]) => (path === 'render_data' ? message : `${path.slice(12)}: ${message}`))
              .join(' '),
      )}
      <button type="submit">Save render data</button>
    </form>
  </section>`;
};
