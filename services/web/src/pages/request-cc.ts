import type { RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary } from '../layout.js';
import { keyShownAgain } from './common.js';
import { ccField } from './request-values.js';

/**
 * **CC** on an open Request's page (ADR 3230): who is sent a copy of the executed document
 * once everyone has signed, replaced whole with `PATCH /v1.1/requests/:id` `{ cc }` (the
 * route: `request-draft-routes.ts`). The form carries its own Idempotency-Key and the
 * addresses the page showed: the same addresses ask the API nothing.
 */

export interface CcForm {
  readonly idempotencyKey: string;
  readonly text: string;
  /** The addresses the page showed, as the field showed them. */
  readonly was: string;
}

export const ccFormOf = (fields: FormFields): CcForm => ({
  idempotencyKey: fields.idempotency_key ?? '',
  text: (fields.cc ?? '').trim(),
  was: fields.was_cc ?? '',
});

export const CC_DONE: Record<string, string> = {
  cc: 'The CC addresses were saved: they get a copy of the signed document once everyone has signed.',
  'cc-same': 'The CC addresses were already as given: nothing was changed.',
};

/** The refusal first on the page, beside the field; it says that nothing was changed. */
export const ccSummary = (refused: ApiProblem): Html => {
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} The CC addresses were not changed.`;
  return problemSummary({ ...refused, detail }, { cc: 'cc' });
};

/** The section, for a draft or sent Request only, prefilled, or as typed when refused. */
export const ccSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: CcForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, typed, problem: refused } = input;
  if (r.state !== 'draft' && r.state !== 'sent') return '';
  const shown = r.cc.join(', ');
  const errors =
    typed === undefined ? [] : [...fieldErrors(refused)].filter(([path]) => path.startsWith('cc'));
  const error = errors.map(([path, message]) => (path === 'cc' ? message : `${path}: ${message}`)).join(' ');
  return html`<section class="panel" aria-labelledby="cc-title">
    <h2 id="cc-title">CC</h2>
    <p class="hint">Nobody here is told anything until everyone has signed; then each gets a copy.</p>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="idempotency_key" value="${keyShownAgain(typed?.idempotencyKey, refused)}" />
      <input type="hidden" name="was_cc" value="${shown}" />
      ${ccField(typed?.text ?? shown, error === '' ? undefined : error)}
      <button type="submit" class="secondary">Save CC addresses</button>
    </form>
  </section>`;
};
