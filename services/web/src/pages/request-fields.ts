import type { FieldEntry, RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary } from '../layout.js';
import { keyShownAgain } from './common.js';
import {
  defaultValueOf,
  typedValuesOf,
  valueControl,
  takesValue,
  valueId,
  valueText,
  type FieldKind,
  type TypedValue,
} from './request-field-values.js';

/**
 * A Request's **Fields** on its page: who fills each and its pre-filled value. On a draft
 * each "Assigned to" is a choice of its signers and each value a control by the field's
 * kind (ADR 3220; request-field-values.ts), saved with `PATCH /v1.1/requests/:id`
 * `{ fields }`: every field with the signer chosen and the value as typed, so a draft
 * created with fields left unassigned can be sent.
 */

/** What the person chose and typed, by field name, kept so a refused form shows it again. */
export interface FieldsForm {
  readonly idempotencyKey: string;
  /** Each field's signer ('' for none). */
  readonly chosen: ReadonlyMap<string, string>;
  /** Each value typed; a field without a value control (its kind unknown) keeps its own. */
  readonly values: ReadonlyMap<string, TypedValue>;
}

/** The form as posted: `field_<i>` names a field, `assigned_to_<i>` its signer, `value_<i>` its value. */
export const fieldsFormOf = (fields: FormFields): FieldsForm => {
  const chosen = new Map<string, string>();
  for (let i = 0; fields[`field_${i}`] !== undefined; i++)
    chosen.set(fields[`field_${i}`]!, fields[`assigned_to_${i}`] ?? '');
  return { idempotencyKey: fields.idempotency_key ?? '', chosen, values: typedValuesOf(fields) };
};

/**
 * The PATCH's `fields`: every field of `r`, its signer as chosen and its value as typed
 * (a field the form did not carry keeps its own); undefined when that changes nothing.
 */
export const fieldEntriesOf = (r: RequestView, form: FieldsForm): FieldEntry[] | undefined => {
  const wanted = r.fields.map((f) => {
    const typed = form.values.get(f.name);
    return {
      name: f.name,
      assigned: form.chosen.get(f.name) ?? f.assigned_to ?? '',
      value: typed === undefined ? f.default_value : defaultValueOf(typed, f.default_value),
    };
  });
  const same = wanted.every(
    (w, i) =>
      (w.assigned === '' ? null : w.assigned) === r.fields[i]!.assigned_to &&
      w.value === r.fields[i]!.default_value,
  );
  if (same) return undefined;
  return wanted.map((w) => ({
    name: w.name,
    ...(w.assigned === '' ? {} : { assigned_to: w.assigned }),
    ...(w.value === null ? {} : { default_value: w.value }),
  }));
};

export const FIELDS_DONE: Record<string, string> = {
  fields: 'The fields were saved: their signers and values.',
  'fields-same': 'Every field already had the signer and value given: nothing was changed.',
};

/** The id of row `i`'s signer choice. */
const signerId = (i: number): string => `field-signer-${String(i)}`;

/**
 * The refusal first on the page; it says that nothing was changed, and an error about a
 * field's signer or value links to its control, named as the control is.
 */
export const fieldsSummary = (
  refused: ApiProblem,
  r: RequestView,
  kinds: ReadonlyMap<string, FieldKind> | undefined,
): Html => {
  const said = refused.detail ?? refused.title;
  const ids: Record<string, string> = {};
  const labels: Record<string, string> = {};
  r.fields.forEach((f, i) => {
    ids[`fields[${i}].assigned_to`] = signerId(i);
    labels[`fields[${i}].assigned_to`] = `Assigned to: ${f.name}`;
    const kind = kinds?.get(f.name);
    if (kind === undefined || !takesValue(kind.type)) return;
    ids[`fields[${i}].default_value`] = valueId(i);
    labels[`fields[${i}].default_value`] = `Value: ${f.name}`;
  });
  return problemSummary(
    { ...refused, detail: `${said}${/[.!?]$/.test(said) ? '' : '.'} The fields were not changed.` },
    ids,
    labels,
  );
};

/** The select of one field's signer on a draft, with the API's refusal of it beside it. */
const chooser = (
  r: RequestView,
  f: RequestView['fields'][number],
  i: number,
  typed: FieldsForm | undefined,
  error: string | undefined,
) => {
  const current = typed?.chosen.get(f.name) ?? f.assigned_to ?? '';
  const id = signerId(i);
  return html`<input type="hidden" name="field_${String(i)}" value="${f.name}" />
    ${error === undefined ? '' : html`<p class="error" id="${id}-error">${error}</p>`}
    <select
      id="${id}"
      name="assigned_to_${String(i)}"
      aria-label="Assigned to: ${f.name}"
      ${error === undefined ? '' : html` aria-invalid="true" aria-describedby="${id}-error"`}
    >
      <option value="" ${current === '' ? html` selected` : ''}>Unassigned</option>
      ${r.signers.map(
        (s) =>
          html`<option value="${s.signer_id}" ${current === s.signer_id ? html` selected` : ''}>
            ${s.signer_id}
          </option>`,
      )}
    </select>`;
};

/**
 * The section: a table, which on a draft is the form that assigns the fields and sets their
 * values (`kinds`: from its templates; undefined when they could not be read, the values
 * then shown as they are and kept).
 */
export const fieldsSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly kinds: ReadonlyMap<string, FieldKind> | undefined;
  readonly typed?: FieldsForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, kinds, typed, problem: refused } = input;
  if (r.fields.length === 0) return '';
  const draft = r.state === 'draft';
  // Refusals beside their controls only when this form was the one refused.
  const errors = typed === undefined ? new Map<string, string>() : fieldErrors(refused);
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
                ${
                  draft
                    ? chooser(r, f, i, typed, errors.get(`fields[${i}].assigned_to`))
                    : (f.assigned_to ?? html`<span class="error">unassigned</span>`)
                }
              </td>
              <td>
                ${
                  draft
                    ? valueControl(
                        f,
                        i,
                        kinds?.get(f.name),
                        typed?.values.get(f.name),
                        errors.get(`fields[${i}].default_value`),
                      )
                    : valueText(f)
                }
              </td>
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
    ${
      kinds === undefined
        ? html`<p class="hint">
            The templates’ fields could not be read just now, so their values are kept as they are.
          </p>`
        : r.fields.some((f) => takesValue(kinds.get(f.name)?.type ?? 'signature'))
          ? html`<p class="hint">
              A value pre-fills the field on its signer’s page; leave it empty, or “(none)”, for none.
            </p>`
          : ''
    }
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="idempotency_key" value="${keyShownAgain(typed?.idempotencyKey, refused)}" />
      ${table}
      <button type="submit" class="secondary">Save fields</button>
    </form>
  </section>`;
};
