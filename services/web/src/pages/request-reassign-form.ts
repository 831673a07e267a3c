import type { RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, tick } from '../layout.js';
import { isOpen, keyShownAgain } from './common.js';
import { REASSIGN_LABEL } from './request-reassign.js';

/**
 * **Reassigning** on a draft's or a sent Request's page (ADR 3560): whether its signers may
 * ask someone else to sign in their place, turned on or off with `PATCH /v1.1/requests/:id`
 * `{ allow_reassign }` (the route: `request-draft-routes.ts`). The form carries its own
 * Idempotency-Key and what the page showed (`was_allow_reassign`): a box left as it was
 * asks the API nothing.
 */

/** What the form sent, kept so a refused form shows the box as it was sent. */
export interface ReassignForm {
  readonly idempotencyKey: string;
  /** The box was ticked. */
  readonly allow: boolean;
  /** The Request's `allow_reassign` when the page was shown. */
  readonly was: boolean;
}

export const reassignFormOf = (fields: FormFields): ReassignForm => ({
  idempotencyKey: fields.idempotency_key ?? '',
  allow: fields.allow_reassign === 'true',
  was: fields.was_allow_reassign === 'true',
});

/** The PATCH body, or undefined when the box is as the page showed it. */
export const reassignChangeOf = (form: ReassignForm): { readonly allow_reassign: boolean } | undefined =>
  form.allow === form.was ? undefined : { allow_reassign: form.allow };

export const REASSIGN_DONE: Record<string, string> = {
  'reassign-on': 'Signers may now ask someone else to sign in their place.',
  'reassign-off': 'Signers can no longer pass this Request on.',
  'reassign-same': 'Reassigning was already as given: nothing was changed.',
};

/** The refusal first on the page, linking to the box; it says that nothing was changed. */
export const reassignSummary = (refused: ApiProblem): Html => {
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} Reassigning was not changed.`;
  return problemSummary(
    { ...refused, detail },
    { allow_reassign: 'allow_reassign' },
    { allow_reassign: `${REASSIGN_LABEL}:` },
  );
};

const HINT = 'A signer whose check before signing is an access code or a code by text is never offered it.';

/**
 * The section, for a draft or a sent Request only: what holds now, and the box ticked as
 * the Request is (or as it was sent, when that was refused, with the refusal beside it).
 */
export const reassignSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: ReassignForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, typed, problem } = input;
  if (!isOpen(r)) return '';
  const error = typed === undefined ? undefined : fieldErrors(problem).get('allow_reassign');
  return html`<section class="panel" aria-labelledby="reassign-heading">
    <h2 id="reassign-heading">Reassigning</h2>
    <p>
      ${
        r.allow_reassign
          ? 'Signers may ask someone else to sign in their place.'
          : 'Signers must sign themselves; they cannot pass this Request on.'
      }
    </p>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="idempotency_key" value="${keyShownAgain(typed?.idempotencyKey, problem)}" />
      <input type="hidden" name="was_allow_reassign" value="${String(r.allow_reassign)}" />
      <div class="field">
        ${tick('allow_reassign', 'allow_reassign', REASSIGN_LABEL, typed?.allow ?? r.allow_reassign, error, HINT)}
      </div>
      <button type="submit">Save reassigning</button>
    </form>
  </section>`;
};
