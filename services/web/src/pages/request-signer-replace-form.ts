import { LIMITS, type SignerView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html, type Html } from '../html.js';
import { csrfField, problemSummary, textField, tick } from '../layout.js';
import { keyShownAgain } from './common.js';
import { contactFieldIds, contactFields } from './request-signer-contact-fields.js';

/**
 * **Replace signer…** in the row of a pending signer of a sent Request (ADR 3550): someone
 * else signs in their place. The disclosure and its refusal; what it posts is in
 * `request-signer-replace.ts`.
 */

/** What the person typed and ticked, kept as typed so a refused form shows it again. */
export interface ReplaceForm {
  /** The signer being replaced, as the row showed them. */
  readonly replaced: string;
  readonly idempotencyKey: string;
  /** The new signer's id, as typed. */
  readonly signerId: string;
  readonly email: string;
  readonly mobile: string;
  readonly byEmail: boolean;
  readonly bySms: boolean;
  readonly notify: boolean;
  /** The note said to the new signer in their invitation, as typed. */
  readonly message: string;
}

/** The form's field ids in row `i`, by the path of the API's field errors. */
export const replaceIds = (i: number): Record<string, string> => ({
  signer_id: `replace-${i}-signer-id`,
  ...contactFieldIds('replace', i),
  message: `replace-${i}-message`,
});

const LABELS: Record<string, string> = {
  signer_id: 'New signer ID:',
  'signer.email': 'E-mail address:',
  'signer.mobile_number': 'Mobile number:',
  send_to: 'Send their link by:',
  'send_to.email': 'Send by e-mail:',
  'send_to.mobile_number': 'Send by SMS:',
  notify: 'Send them the link now, and tell the replaced signer:',
  message: 'Message to the new signer:',
};

/** The refusal first on the page: errors beside a field of row `i` link to it, the others say their path. */
export const replaceSummary = (refused: ApiProblem, replaced: string, i: number): Html => {
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} ${replaced} was not replaced.`;
  // A signer no longer listed (signed or gone meanwhile) has no form to link to.
  return problemSummary({ ...refused, detail }, i < 0 ? {} : replaceIds(i), LABELS);
};

/** The optional note to the new signer: said in their invitation instead of the Request's message. */
const noteField = (id: string, value: string, error: string | undefined): Html =>
  html`<div class="field">
    <label for="${id}">Message to the new signer (optional)</label>
    <p class="hint" id="${id}-hint">
      Why they are asked to sign, in their invitation instead of the Request’s own message. Up to
      ${LIMITS.message.toLocaleString('en')} characters.
    </p>
    ${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
    <textarea
      id="${id}"
      name="message"
      rows="3"
      maxlength="${String(LIMITS.message)}"
      class="prose"
      aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"
      ${error ? html` aria-invalid="true"` : ''}
    >
${value}</textarea>
  </div>`;

export const REPLACE_HINT =
  'Someone else signs in their place: the fields that were theirs become the new signer’s, and the replaced signer’s link stops working.';

/**
 * The disclosure in a pending signer's row of a sent Request: empty but for the channels
 * the replaced signer had, or what was typed (`typed`, open) when the API refused it, each
 * refusal beside its field.
 */
export const replaceForm = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly signer: Pick<SignerView, 'signer_id' | 'send_to'>;
  readonly i: number;
  readonly typed?: ReplaceForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html => {
  const { signer: s, i, typed, problem } = input;
  const ids = replaceIds(i);
  const errors = new Map(
    typed === undefined ? [] : (problem?.errors ?? []).map((e) => [ids[e.path] ?? '', e.message]),
  );
  const values: ReplaceForm = typed ?? {
    replaced: s.signer_id,
    idempotencyKey: '',
    signerId: '',
    email: '',
    mobile: '',
    byEmail: s.send_to.email,
    bySms: s.send_to.mobile_number,
    notify: true,
    message: '',
  };
  const key = keyShownAgain(typed?.idempotencyKey, problem);
  return html`<details class="replace" ${typed ? html` open` : ''}>
    <summary>Replace signer<span class="visually-hidden"> ${s.signer_id}</span>…</summary>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="replaced" value="${s.signer_id}" />
      <input type="hidden" name="idempotency_key" value="${key}" />
      <p class="hint">${REPLACE_HINT}</p>
      ${textField({
        id: ids.signer_id!,
        name: 'signer_id',
        label: 'New signer ID',
        hint: 'An e-mail address or a 10-digit US mobile number as the ID is also how they are reached.',
        value: values.signerId,
        autocomplete: 'off',
        required: true,
        error: errors.get(ids.signer_id!),
      })}
      ${contactFields({ ids, values, errors, channels: { email: 'Send by e-mail', sms: 'Send by SMS' } })}
      <div class="field">
        ${tick(ids.notify!, 'notify', 'Send them the link now, and tell the replaced signer', values.notify, errors.get(ids.notify!))}
      </div>
      ${noteField(ids.message!, values.message, errors.get(ids.message!))}
      <button type="submit" class="secondary">
        Replace signer<span class="visually-hidden"> ${s.signer_id}</span>
      </button>
    </form>
  </details>`;
};
