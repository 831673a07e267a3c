import * as E from 'fp-ts/lib/Either.js';
import { formatLength, type DeclaredField } from '@esign/contracts';
import { at, fieldError, type FieldError } from './paths.js';
import { LIMITS } from './signing.js';
import { declareFields, type TemplateField } from './template-fields.js';

// A PDF template's own form fields, with the rules its creator declares for them (ADR 3670).

/** The length of a date as the executed PDF writes it: YYYY-MM-DD. */
const DATE_LENGTH = 10;

/**
 * What a PDF's field of each kind may be declared as: a text field also as a date, initials
 * (ADR 3900) or the signer's full name (ADR 3910).
 */
const DECLARABLE: Readonly<Record<TemplateField['type'], readonly TemplateField['type'][]>> = {
  text: ['text', 'date', 'date_signed', 'initials', 'full_name'],
  checkbox: ['checkbox'],
  choice: ['choice'],
  signature: ['signature'],
  date: [],
  date_signed: [],
  initials: [],
  full_name: [],
  // A file uploaded (ADR 3920) has no place on a PDF's page: HTML templates only.
  attachment: [],
};

const KIND: Readonly<Record<TemplateField['type'], string>> = {
  text: 'a text field',
  checkbox: 'a checkbox',
  choice: 'a choice',
  signature: 'a signature field',
  date: 'a date field',
  date_signed: 'a date signed field',
  initials: 'an initials field',
  full_name: 'a full name field',
  attachment: 'an attachment field',
};

/** Why `d` cannot be declared for the PDF's `own` field at `path`, if it cannot. */
const misfit = (own: TemplateField, d: DeclaredField, path: string): FieldError | undefined => {
  if (!DECLARABLE[own.type].includes(d.type))
    return fieldError(
      `${path}.type`,
      `must be ${DECLARABLE[own.type].join(', ').replace(/, (?=[^,]*$)/, ' or ')}: the PDF's field "${own.name}" is ${KIND[own.type]}`,
    );
  if (d.options !== undefined && own.type === 'choice')
    return fieldError(
      `${path}.options`,
      `must be left out: the PDF's choice "${own.name}" has its own options`,
    );
  const limit = own.type === 'text' ? own.maxLength : null;
  if (limit === null) return undefined;
  if (d.max_length !== undefined && d.max_length > limit)
    return fieldError(`${path}.max_length`, `must not be more than the PDF field's own limit (${limit})`);
  if (d.min_length !== undefined && d.max_length === undefined && d.min_length > limit)
    return fieldError(`${path}.min_length`, `must not be more than the PDF field's own limit (${limit})`);
  if (d.format !== undefined && d.max_length === undefined && formatLength(d.format) > limit)
    return fieldError(
      `${path}.format`,
      `describes values of ${formatLength(d.format)} characters, more than the PDF field's own limit (${limit})`,
    );
  // Initials (ADR 3900) are kept to what any such field holds.
  if (d.type === 'initials' && limit < LIMITS.initials)
    return fieldError(
      `${path}.type`,
      `cannot be initials: the PDF's field "${own.name}" holds at most ${limit} characters, and initials take up to ${LIMITS.initials}`,
    );
  // A full name (ADR 3910) is the typed signature, which may take its whole limit.
  if (d.type === 'full_name' && limit < LIMITS.typedName)
    return fieldError(
      `${path}.type`,
      `cannot be a full name: the PDF's field "${own.name}" holds at most ${limit} characters, and a signer's name may take up to ${LIMITS.typedName}`,
    );
  if ((d.type === 'date' || d.type === 'date_signed') && limit < DATE_LENGTH)
    return fieldError(
      `${path}.type`,
      `cannot be ${d.type}: the PDF's field "${own.name}" holds at most ${limit} characters, and a date takes ${DATE_LENGTH}`,
    );
  return undefined;
};

/**
 * A PDF's form fields (`own`, read from the file, in its order) with the rules `declared`
 * for some of them (ADR 3670): a text field may ask for a kind of value or a format (ADR
 * 3870), a fewest or a smaller most characters, or be optional, or be a date the signer
 * picks, the date they sign on or their initials (ADR 3900); a checkbox may have to be ticked; a choice may be optional. Each declaration
 * names one of the PDF's fields and is checked as an HTML template's is; a choice keeps the
 * PDF's options, and a text field keeps the PDF's limit unless a smaller one is declared.
 */
export const declarePdfFields = (
  own: readonly TemplateField[],
  declared: readonly DeclaredField[],
): E.Either<FieldError[], readonly TemplateField[]> => {
  const byName = new Map(own.map((f) => [f.name, f]));
  const errors: FieldError[] = [];
  // A choice is checked with the PDF's options, which it keeps.
  const filled = declared.map((d, i) => {
    const path = at('fields', i);
    const field = byName.get(d.name);
    if (field === undefined) {
      errors.push(fieldError(`${path}.name`, `names no form field of the PDF: "${d.name}"`));
      return d;
    }
    const wrong = misfit(field, d, path);
    if (wrong !== undefined) errors.push(wrong);
    if (field.type === 'choice') return { ...d, options: [...field.options] };
    if (field.type === 'text' && d.type === 'text' && d.max_length === undefined && field.maxLength !== null)
      return { ...d, max_length: field.maxLength };
    return d;
  });
  if (errors.length > 0) return E.left(errors);
  return E.map((rules: readonly TemplateField[]) => {
    const ruled = new Map(rules.map((f) => [f.name, f]));
    return own.map((f) => ruled.get(f.name) ?? f);
  })(declareFields(filled, own));
};
