import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  ContractFieldView,
  formatLength,
  isRelativeBound,
  textInputFor,
  type FieldView,
  type RequestView,
  type TextValidation,
} from '@esign/contracts';
import type { Visitor } from '../context.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';

/**
 * A draft's field **values** on its page: each field's `default_value` typed by the kind of
 * field its template declares (a text box within its `min_length` and `max_length`,
 * Checked / Unchecked for a checkbox, one of a choice's options; a signature is signed, and
 * the date signed filled in when it is, never pre-filled), sent whole with the signers in
 * `PATCH /v1.1/requests/:id` `{ fields }` (request-fields.ts).
 */

/**
 * Whether a field of this type may be pre-filled: not a signature, which its signer signs,
 * nor the date they sign on (ADR 3570), which the service fills in.
 */
export const takesValue = (type: ContractFieldView['type']): boolean =>
  type !== 'signature' &&
  type !== 'date_signed' &&
  type !== 'initials' &&
  type !== 'full_name' &&
  type !== 'attachment';

/** What a field's value may be, from its template; a name on several templates fits each. */
export interface FieldKind {
  readonly type: ContractFieldView['type'];
  /** A choice's options (those every template naming it offers). */
  readonly options: readonly string[];
  /**
   * A text field's fewest characters (the largest any template naming it sets, ADR 3660) and
   * limit (the smallest): the browser holds a non-empty value to both, as the API does.
   */
  readonly minLength?: number | undefined;
  readonly maxLength?: number | undefined;
  /** What a text field's value must look like (ADR 3600), when a template naming it asks. */
  readonly validation?: TextValidation | undefined;
  /** How a text field's value is written (ADR 3870), when a template naming it says. */
  readonly format?: string | undefined;
  /**
   * A date's fixed earliest and latest (ADR 3620), the tightest any template naming it sets:
   * what a pre-filled value must keep to. A bound from `today` moves with the signer's day (ADR 3650).
   */
  readonly earliest?: string | undefined;
  readonly latest?: string | undefined;
}

const fixed = (bound: string | undefined): string | undefined =>
  bound === undefined || isRelativeBound(bound) ? undefined : bound;
const tightest = (bounds: readonly (string | undefined)[], pick: 'last' | 'first'): string | undefined => {
  const set = bounds.filter((b): b is string => b !== undefined).sort();
  return pick === 'last' ? set.at(-1) : set.at(0);
};

/** A text field's limit: its `max_length`, or the length of a value written as its format (ADR 3870). */
const limitOf = (f: ContractFieldView): number | undefined =>
  f.format === undefined ? f.max_length : Math.min(f.max_length ?? Infinity, formatLength(f.format));

/** No more than a template's fields is decoded (its document is not needed). */
const ContractFields = t.type({ fields: t.array(ContractFieldView) });

/** `a` and another template's definition of the same name, or undefined when no value fits both. */
const both = (a: FieldKind, b: ContractFieldView): FieldKind | undefined => {
  if (a.type !== b.type) return undefined;
  if (a.validation !== undefined && b.validation !== undefined && a.validation !== b.validation)
    return undefined;
  if (a.format !== undefined && b.format !== undefined && a.format !== b.format) return undefined;
  const minimums = [a.minLength, b.min_length].filter((n) => n !== undefined);
  const limits = [a.maxLength, limitOf(b)].filter((n) => n !== undefined);
  return {
    type: a.type,
    options: a.options.filter((o) => (b.options ?? []).includes(o)),
    minLength: minimums.length === 0 ? undefined : Math.max(...minimums),
    maxLength: limits.length === 0 ? undefined : Math.min(...limits),
    validation: a.validation ?? b.validation,
    format: a.format ?? b.format,
    earliest: tightest([a.earliest, fixed(b.earliest)], 'last'),
    latest: tightest([a.latest, fixed(b.latest)], 'first'),
  };
};

/**
 * The kinds of a draft's fields, by name, from its contracts (published templates, which
 * never change), read at once; none for a Request that is not a draft or has no fields.
 * Undefined when a contract could not be read: the values are then shown as they are.
 */
export const fieldKindsOf = async (
  visitor: Visitor,
  r: RequestView,
): Promise<ReadonlyMap<string, FieldKind> | undefined> => {
  if (r.state !== 'draft' || r.fields.length === 0) return new Map();
  const read = await Promise.all(
    [...new Set(r.contracts)].map((id) =>
      visitor.api({ method: 'GET', path: `/v1.1/contracts/${String(id)}`, codec: ContractFields }),
    ),
  );
  const kinds = new Map<string, FieldKind | undefined>();
  for (const found of read) {
    if (E.isLeft(found)) return undefined;
    for (const f of found.right.fields) {
      const known = kinds.get(f.name);
      kinds.set(
        f.name,
        !kinds.has(f.name)
          ? {
              type: f.type,
              options: f.options ?? [],
              minLength: f.min_length,
              maxLength: limitOf(f),
              validation: f.validation,
              format: f.format,
              earliest: fixed(f.earliest),
              latest: fixed(f.latest),
            }
          : known && both(known, f),
      );
    }
  }
  return new Map([...kinds].filter((e): e is [string, FieldKind] => e[1] !== undefined));
};

/** The value's input type: a date's picker, or the keyboard a text field's kind of value needs. */
const inputType = (kind: FieldKind): Html => {
  if (kind.type === 'date')
    return html`type="date"${kind.earliest === undefined ? '' : html` min="${kind.earliest}"`}${
      kind.latest === undefined ? '' : html` max="${kind.latest}"`
    }`;
  const input = textInputFor(kind.validation, kind.format);
  return html`type="${input.type}"${input.inputmode === undefined ? '' : html` inputmode="${input.inputmode}"`}${
    input.code === true ? html` autocapitalize="characters" spellcheck="false"` : ''
  }`;
};

/** What was typed for one field's value: the control's kind and its text as posted. */
export interface TypedValue {
  readonly kind: string;
  readonly text: string;
}

/** The values the form carried (`kind_<i>` and `value_<i>` beside `field_<i>`), by field name. */
export const typedValuesOf = (fields: FormFields): Map<string, TypedValue> => {
  const values = new Map<string, TypedValue>();
  for (let i = 0; fields[`field_${i}`] !== undefined; i++) {
    const kind = fields[`kind_${i}`];
    if (kind !== undefined) values.set(fields[`field_${i}`]!, { kind, text: fields[`value_${i}`] ?? '' });
  }
  return values;
};

/**
 * A typed value as the API takes it: a boolean for a checkbox, the text otherwise; null
 * for none (an empty text box, "(none)"). An emptied text box keeps an empty value as it
 * was, since the page cannot tell it from none.
 */
export const defaultValueOf = (
  typed: TypedValue,
  current: FieldView['default_value'],
): string | boolean | null => {
  if (typed.kind === 'checkbox') return typed.text === 'true' ? true : typed.text === 'false' ? false : null;
  if (typed.text === '') return current === '' ? '' : null;
  return typed.text;
};

/** A value as the page shows it read-only (a sent Request, a field of unknown kind). */
export const valueText = (f: FieldView): string => (f.default_value === null ? '' : String(f.default_value));

/** The id of row `i`'s value control: the summary of a refusal links to it. */
export const valueId = (i: number): string => `field-value-${String(i)}`;

const option = (value: string, label: string, shown: string): Html =>
  html`<option value="${value}" ${shown === value ? html` selected` : ''}>${label}</option>`;

/**
 * Row `i`'s Value cell on a draft: a control by the field's kind (`kind` undefined: shown
 * as it is and kept), with the API's refusal of it beside it.
 */
export const valueControl = (
  f: FieldView,
  i: number,
  kind: FieldKind | undefined,
  typed: TypedValue | undefined,
  error: string | undefined,
): Html | string => {
  if (kind === undefined) return valueText(f);
  if (kind.type === 'signature') return html`<span class="hint">signed by the signer</span>`;
  if (kind.type === 'date_signed') return html`<span class="hint">the date the signer signs on</span>`;
  if (kind.type === 'initials')
    return html`<span class="hint">the signer's initials, typed when they sign</span>`;
  if (kind.type === 'full_name') return html`<span class="hint">the name the signer types to sign</span>`;
  if (kind.type === 'attachment')
    return html`<span class="hint">a file the signer uploads when they sign</span>`;
  const id = valueId(i);
  // What was typed, or the field's value.
  const shown = typed?.text ?? valueText(f);
  const name = `value_${String(i)}`;
  const label = `Value: ${f.name}`;
  const invalid = error === undefined ? '' : html` aria-invalid="true" aria-describedby="${id}-error"`;
  const control =
    kind.type === 'text' || kind.type === 'date'
      ? html`<input
          ${inputType(kind)}
          id="${id}"
          name="${name}"
          aria-label="${label}"
          value="${shown}"
          ${kind.minLength === undefined ? '' : html` minlength="${String(kind.minLength)}"`}${
            kind.maxLength === undefined ? '' : html` maxlength="${String(kind.maxLength)}"`
          }${invalid}
        />`
      : html`<select id="${id}" name="${name}" aria-label="${label}" ${invalid}>
          ${option('', '(none)', shown)}
          ${
            kind.type === 'checkbox'
              ? [option('true', 'Checked', shown), option('false', 'Unchecked', shown)]
              : kind.options.map((o) => option(o, o, shown))
          }
        </select>`;
  return html`<input type="hidden" name="kind_${String(i)}" value="${kind.type}" />
    ${error === undefined ? '' : html`<p class="error" id="${id}-error">${error}</p>`} ${control}`;
};
