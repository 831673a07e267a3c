import type { FieldEntry, RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, problemSummary } from '../layout.js';
import { keyShownAgain } from './common.js';

/**
 * A Request's **Fields** on its page: who fills each and its pre-filled value. On a draft
 * each "Assigned to" is a choice of its signers (ADR 3220), saved with
 * `PATCH /v1.1/requests/:id` `{ fields }`: every field with its value as it is and the
 * signer chosen, so a draft created with fields left unassigned can be sent.
 */

/** What the person chose, by field name ('' for none), kept so a refused form shows it again. */
export interface FieldsForm {
  readonly idempotencyKey: string;
  readonly chosen: ReadonlyMap<string, string>;
}

/** The form as posted: `field_<i>` names a field and `assigned_to_<i>` its signer. */
export const fieldsFormOf = (fields: FormFields): FieldsForm => {
  const chosen = new Map<string, string>();
  for (let i = 0; fields[`field_${i}`] !== undefined; i++)
    chosen.set(fields[`field_${i}`]!, fields[`assigned_to_${i}`] ?? '');
  return { idempotencyKey: fields.idempotency_key ?? '', chosen };
};

/**
 * The PATCH's `fields`: every field of `r`, its value kept and its signer as chosen (a
 * field the form did not carry keeps its own); undefined when that changes no assignment.
 */
export const fieldEntriesOf = (r: RequestView, form: FieldsForm): FieldEntry[] | undefined => {
  const entries = r.fields.map((f) => {
    const chosen = form.chosen.get(f.name) ?? f.assigned_to ?? '';
    return {
      name: f.name,
      ...(chosen === '' ? {} : { assigned_to: chosen }),
      ...(f.default_value === null ? {} : { default_value: f.default_value }),
    };
  });
  const same = entries.every((e, i) => (e.assigned_to ?? null) === r.fields[i]!.assigned_to);
  return same ? undefined : entries;
};

export const FIELDS_DONE: Record<string, string> = {
  fields: 'The fields’ signers were saved.',
  'fields-same': 'Every field was already assigned as chosen: nothing was changed.',
};

/** The refusal first on the page; it says that nothing was changed. */
export const fieldsSummary = (refused: ApiProblem): Html => {
  const said = refused.detail ?? refused.title;
  return problemSummary({
    ...refused,
    detail: `${said}${/[.!?]$/.test(said) ? '' : '.'} The fields were not changed.`,
  });
};

const valueOf = (f: RequestView['fields'][number]) =>
  f.default_value === null ? '' : String(f.default_value);

/** The select of one field's signer on a draft. */
const chooser = (
  r: RequestView,
  f: RequestView['fields'][number],
  i: number,
  typed: FieldsForm | undefined,
) => {
  const current = typed?.chosen.get(f.name) ?? f.assigned_to ?? '';
  return html`<input type="hidden" name="field_${String(i)}" value="${f.name}" />
    <select name="assigned_to_${String(i)}" aria-label="Assigned to: ${f.name}">
      <option value="" ${current === '' ? html` selected` : ''}>Unassigned</option>
      ${r.signers.map(
        (s) =>
          html`<option value="${s.signer_id}" ${current === s.signer_id ? html` selected` : ''}>
            ${s.signer_id}
          </option>`,
      )}
    </select>`;
};

/** The section: a table, which on a draft is the form that assigns the fields. */
export const fieldsSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: FieldsForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, typed, problem: refused } = input;
  if (r.fields.length === 0) return '';
  const draft = r.state === 'draft';
  const unassigned = r.fields.filter((f) => f.assigned_to === null).length;
  const table = html`<div class="table-wrap">
    <table>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Assigned to</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        ${r.fields.map(
          (f, i) =>
            html`<tr>
              <td>${f.name}</td>
              <td>
                ${draft ? chooser(r, f, i, typed) : (f.assigned_to ?? html`<span class="error">unassigned</span>`)}
              </td>
              <td>${valueOf(f)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
  if (!draft)
    return html`<h2>Fields</h2>
      ${table}`;
  return html`<section aria-labelledby="fields-title">
    <h2 id="fields-title">Fields</h2>
    <p class="hint">
      Every field needs a signer before the Request can be
      sent${unassigned > 0 ? html`: <strong>${String(unassigned)} unassigned</strong>` : ''}.
    </p>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="idempotency_key" value="${keyShownAgain(typed?.idempotencyKey, refused)}" />
      ${table}
      <button type="submit" class="secondary">Save field assignments</button>
    </form>
  </section>`;
};
