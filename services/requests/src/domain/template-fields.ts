import * as E from 'fp-ts/lib/Either.js';
import {
  boundsCross,
  fitsFormat,
  formatLength,
  MAX_BOUND_DAYS,
  type DeclaredField,
  type ShownIfAny,
  type TextValidation,
} from '@esign/contracts';
import {
  fitsValidation,
  formatProblem,
  isCalendarDate,
  isDateBound,
  outsideBounds,
  VALIDATION_PROBLEM,
} from './field-value-rules.js';
import { conditionErrors } from './field-conditions.js';
import { at, fieldError, type FieldError } from './paths.js';

export * from './field-value-rules.js';

// The fields of a template: their types, their declaration, what may be pre-filled into them,
// and which of them one Request's contracts may share by name (field-clashes.ts).

/**
 * Whether and when its signer must fill a field in, for the types a signer fills in.
 */
interface Requirement {
  /**
   * Whether they must (ADR 3610), kept only where it differs from the type's rule
   * (`isRequired`): a text field, choice or date declared optional (`false`), a checkbox that
   * must be ticked (`true`).
   */
  readonly required?: boolean;
  /**
   * Asked for only while another field of its template is ticked, or has the option
   * `equals` chosen (ADR 3710), or while any of several such conditions holds (ADR 3850);
   * absent: always.
   */
  readonly shownIf?: ShownIfAny;
}

/** A place on a contract that a signer fills in, and what may be pre-filled into it. */
export type TemplateField =
  | ({
      readonly name: string;
      readonly type: 'text';
      readonly maxLength: number | null;
      /** The fewest characters it takes when filled in (ADR 3660); absent: one. */
      readonly minLength?: number;
      /** What its value must look like (ADR 3600); absent: any one line of text. */
      readonly validation?: TextValidation;
      /** How its value is written, character by character (ADR 3870); never with `validation`. */
      readonly format?: string;
      /** Its value concealed in the executed document (ADR 3740). */
      readonly conceal?: true;
    } & Requirement)
  | ({ readonly name: string; readonly type: 'checkbox' } & Requirement)
  | ({ readonly name: string; readonly type: 'choice'; readonly options: readonly string[] } & Requirement)
  | { readonly name: string; readonly type: 'signature' }
  /** A calendar date its signer picks, as YYYY-MM-DD (ADR 3580). */
  | ({
      readonly name: string;
      readonly type: 'date';
      /** The earliest and latest dates it takes (ADR 3620): YYYY-MM-DD, or `today`. */
      readonly earliest?: string;
      readonly latest?: string;
    } & Requirement)
  /** The date its signer signed on, filled in by the service when they sign (ADR 3570). */
  | { readonly name: string; readonly type: 'date_signed' }
  /** Its signer's initials, typed once beside their signature (ADR 3900). */
  | { readonly name: string; readonly type: 'initials' }
  /** The name its signer typed to sign, filled in by the service when they sign (ADR 3910). */
  | { readonly name: string; readonly type: 'full_name' }
  /** A file its signer uploads on their page (ADR 3920); its value is the file's name. */
  | ({ readonly name: string; readonly type: 'attachment' } & Requirement);

/**
 * Whether its signer must fill a field in, or tick it (ADR 3610): a text field, a choice and
 * a date unless declared optional; a checkbox only when declared required. A signature is
 * always signed, and the date signed always filled in.
 */
export const isRequired = (f: TemplateField): boolean =>
  'required' in f && f.required !== undefined ? f.required : f.type !== 'checkbox';

/**
 * The field's `required` as kept and shown, only where it differs from its type's rule, and
 * its condition (ADR 3710).
 */
const requirementOf = (d: DeclaredField): Requirement => ({
  ...(d.required !== undefined && d.required !== (d.type !== 'checkbox') && { required: d.required }),
  ...(d.shown_if !== undefined && { shownIf: d.shown_if }),
});

const TAKES_REQUIRED: ReadonlySet<TemplateField['type']> = new Set([
  'text',
  'checkbox',
  'choice',
  'date',
  'attachment',
]);

/**
 * Why a text field's `format` (ADR 3870) cannot stand with its other rules: beside a
 * `validation`, or describing values longer than its `max_length` or shorter than its
 * `min_length`.
 */
const formatErrors = (d: DeclaredField, path: string): FieldError[] => {
  if (d.format === undefined || d.type !== 'text') return [];
  if (d.validation !== undefined)
    return [
      fieldError(`${path}.format`, 'must not be set with validation: a value is checked by one or the other'),
    ];
  const length = formatLength(d.format);
  if (d.max_length !== undefined && length > d.max_length)
    return [
      fieldError(
        `${path}.format`,
        `describes values of ${length} characters, more than max_length (${d.max_length})`,
      ),
    ];
  if (d.min_length !== undefined && d.min_length > length)
    return [
      fieldError(
        `${path}.min_length`,
        `must not be more than the ${length} characters of a value written as format`,
      ),
    ];
  return [];
};

/** Checks the fields declared for an HTML template and turns them into template fields. */
export const declareFields = (
  declared: readonly DeclaredField[],
  /** The template's fields declared by its file, not here: a PDF's own (ADR 3670). */
  others: readonly TemplateField[] = [],
): E.Either<FieldError[], readonly TemplateField[]> => {
  const errors: FieldError[] = [];
  const fields: TemplateField[] = [];
  const seen = new Map<string, number>();
  declared.forEach((d, i) => {
    const path = at('fields', i);
    const first = seen.get(d.name);
    if (first !== undefined) {
      errors.push(fieldError(`${path}.name`, `duplicates fields[${first}].name "${d.name}"`));
      return;
    }
    seen.set(d.name, i);
    if (d.options !== undefined && d.type !== 'choice')
      errors.push(fieldError(`${path}.options`, 'is only allowed on a choice field'));
    if (d.max_length !== undefined && d.type !== 'text')
      errors.push(fieldError(`${path}.max_length`, 'is only allowed on a text field'));
    if (d.min_length !== undefined && d.type !== 'text')
      errors.push(fieldError(`${path}.min_length`, 'is only allowed on a text field'));
    else if (d.min_length !== undefined && d.max_length !== undefined && d.min_length > d.max_length)
      errors.push(fieldError(`${path}.min_length`, `must not be more than max_length (${d.max_length})`));
    errors.push(...formatErrors(d, path));
    for (const rule of ['validation', 'format', 'conceal'] as const)
      if (d[rule] !== undefined && d.type !== 'text')
        errors.push(fieldError(`${path}.${rule}`, 'is only allowed on a text field'));
    for (const rule of ['required', 'shown_if'] as const)
      if (d[rule] !== undefined && !TAKES_REQUIRED.has(d.type))
        errors.push(
          fieldError(
            `${path}.${rule}`,
            'is only allowed on a text, checkbox, choice, date or attachment field',
          ),
        );
    for (const bound of ['earliest', 'latest'] as const) {
      const value = d[bound];
      if (value === undefined) continue;
      if (d.type !== 'date') errors.push(fieldError(`${path}.${bound}`, 'is only allowed on a date field'));
      else if (!isDateBound(value))
        errors.push(
          fieldError(
            `${path}.${bound}`,
            `must be a date as YYYY-MM-DD, like 2030-01-31, "today", or "today+N" or "today-N" days (N at most ${MAX_BOUND_DAYS})`,
          ),
        );
    }
    const { earliest, latest } = d;
    if (
      earliest !== undefined &&
      latest !== undefined &&
      isDateBound(earliest) &&
      isDateBound(latest) &&
      boundsCross(earliest, latest)
    )
      errors.push(fieldError(`${path}.latest`, `must not be before earliest (${d.earliest})`));
    const requirement = requirementOf(d);
    switch (d.type) {
      case 'text':
        fields.push({
          name: d.name,
          type: 'text',
          maxLength: d.max_length ?? null,
          ...(d.min_length !== undefined && { minLength: d.min_length }),
          ...(d.validation !== undefined && { validation: d.validation }),
          ...(d.format !== undefined && { format: d.format }),
          ...(d.conceal === true && { conceal: true as const }),
          ...requirement,
        });
        break;
      case 'checkbox':
      case 'attachment':
        fields.push({ name: d.name, type: d.type, ...requirement });
        break;
      case 'signature':
        fields.push({ name: d.name, type: 'signature' });
        break;
      case 'date':
        fields.push({
          name: d.name,
          type: d.type,
          ...(d.earliest !== undefined && { earliest: d.earliest }),
          ...(d.latest !== undefined && { latest: d.latest }),
          ...requirement,
        });
        break;
      case 'date_signed':
      case 'initials':
      case 'full_name':
        fields.push({ name: d.name, type: d.type });
        break;
      case 'choice': {
        if (d.options === undefined) {
          errors.push(fieldError(`${path}.options`, 'required for a choice field'));
          break;
        }
        const duplicate = d.options.findIndex((o, j) => d.options!.indexOf(o) !== j);
        if (duplicate !== -1)
          errors.push(
            fieldError(at(`${path}.options`, duplicate), `duplicates option "${d.options[duplicate]}"`),
          );
        fields.push({ name: d.name, type: 'choice', options: d.options, ...requirement });
        break;
      }
    }
  });
  errors.push(...conditionErrors(declared, fields, others));
  return errors.length > 0 ? E.left(errors) : E.right(fields);
};

/** A date the signer picks or the date they sign on (ADRs 3570, 3580). */
export const isDateKind = (type: TemplateField['type']): boolean => type === 'date' || type === 'date_signed';

/** Whether `value` may be pre-filled into `field`; answers why not. */
export const checkDefaultValue = (field: TemplateField, value: string | boolean): string | undefined => {
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') return `must be a string: "${field.name}" is a text field`;
      if (field.maxLength !== null && value.length > field.maxLength)
        return `must be at most ${field.maxLength} characters: the limit of text field "${field.name}"`;
      // An empty value is none: the minimum is for what the signer types (ADR 3660).
      if (field.minLength !== undefined && value !== '' && [...value].length < field.minLength)
        return `must be at least ${field.minLength} characters: the minimum of text field "${field.name}"`;
      if (field.validation !== undefined && !fitsValidation(field.validation, value))
        return `${VALIDATION_PROBLEM[field.validation]}: text field "${field.name}" asks for ${field.validation}`;
      if (field.format !== undefined && value !== '' && !fitsFormat(field.format, value))
        return `${formatProblem(field.format)}: the format of text field "${field.name}"`;
      return undefined;
    case 'checkbox':
      return typeof value === 'boolean' ? undefined : `must be true or false: "${field.name}" is a checkbox`;
    case 'choice':
      if (typeof value !== 'string' || !field.options.includes(value))
        return `must be one of ${field.options.map((o) => JSON.stringify(o)).join(', ') || '(no options)'}: the options of "${field.name}"`;
      return undefined;
    case 'signature':
      return `is not allowed: signature field "${field.name}" is signed by its signer, not pre-filled`;
    case 'date': {
      if (typeof value !== 'string' || !isCalendarDate(value))
        return `must be a date as YYYY-MM-DD, like 2030-01-31: "${field.name}" is a date field`;
      // A bound from `today` moves with the signer's day, not known yet: the fixed ones are checked now.
      const outside = outsideBounds([field], value, undefined);
      return outside === undefined ? undefined : `${outside}: the bounds of date field "${field.name}"`;
    }
    case 'date_signed':
      return `is not allowed: "${field.name}" is the date its signer signs on, filled in when they sign`;
    case 'initials':
      return `is not allowed: "${field.name}" holds its signer's initials, typed when they sign`;
    case 'full_name':
      return `is not allowed: "${field.name}" holds the name its signer types to sign, filled in when they sign`;
    case 'attachment':
      return `is not allowed: "${field.name}" holds a file its signer uploads when they sign`;
  }
};
