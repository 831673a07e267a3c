import {
  boundsCross,
  decode,
  FieldFormat,
  isDateBound,
  TextValidation,
  type ContractFieldView,
} from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import {
  nameWritten,
  shownIfOf,
  shownIfText,
  shownIfWritten,
  type EditorShownIf,
} from './field-condition-lines.js';

export { nameWritten } from './field-condition-lines.js';

const FIELD_TYPES = [
  'text',
  'checkbox',
  'choice',
  'date',
  'signature',
  'date_signed',
  'initials',
  'full_name',
  'attachment',
] as const;

/**
 * A signer field as the template editor writes it (ADR 3640): a type; a choice's options;
 * for text, its length limits (ADR 3660) and what its value must look like (ADR 3600); for a date, its
 * earliest and latest dates (ADR 3620); whether it must be filled in, where that is not its
 * type's rule (ADR 3610). The API's names, so that the list is the create's `fields`.
 */
export interface EditorField {
  readonly name: string;
  readonly type: (typeof FIELD_TYPES)[number];
  readonly options?: readonly string[];
  readonly validation?: TextValidation;
  /** How a text field's value is written, character by character (ADR 3870). */
  readonly format?: string;
  readonly min_length?: number;
  readonly max_length?: number;
  readonly earliest?: string;
  readonly latest?: string;
  readonly required?: boolean;
  /**
   * Asked for only while another field is ticked, or not (ADR 3760), or has this option, or
   * one of these, chosen (ADRs 3710, 3790), or while any of several such conditions holds (ADR 3850).
   */
  readonly shown_if?: EditorShownIf;
  /** A text field's value concealed in the executed document (ADR 3740). */
  readonly conceal?: boolean;
}

const KINDS = Object.keys(TextValidation.keys);
const SYNTAX = 'type text, checkbox, choice, date, signature, date_signed, initials, full_name or attachment';

/** What one word after a field's type adds to it, or why it cannot. */
const wordOf = (type: EditorField['type'], word: string): Partial<EditorField> | string => {
  if (TextValidation.is(word))
    return type === 'text'
      ? { validation: word }
      : 'only a text field asks for a kind of value, as in "zip: text zip_code"';
  if (word === 'optional')
    return type === 'text' || type === 'date' || type === 'choice' || type === 'attachment'
      ? { required: false }
      : 'only a text field, choice, date or attachment can be optional';
  if (word === 'conceal')
    return type === 'text'
      ? { conceal: true }
      : 'only a text field is concealed in the executed document, as in "ssn: text ssn conceal"';
  if (word === 'required')
    return type === 'checkbox'
      ? { required: true }
      : 'only a checkbox is marked required: other fields are, unless optional';
  return `"${word}" is not known: after the type write a text field's kind of value (${KINDS.join(', ')}), "format" and its format, or "min" and "max" and their limits, a date's "from" or "to" and a date, "optional", "conceal" or, for a checkbox, "required"`;
};

/** A positive whole number as typed after `min` or `max`, or undefined. */
const countOf = (value: string | undefined): number | undefined =>
  value !== undefined && /^[1-9]\d*$/.test(value) && Number.isSafeInteger(Number(value))
    ? Number(value)
    : undefined;

/** A text field's format as typed after `format` (ADR 3870), or why not. */
const formatOf = (type: EditorField['type'], value: string | undefined): Partial<EditorField> | string => {
  if (type !== 'text') return 'only a text field is written in a format, as in "plate: text format AA-9999"';
  if (value === undefined)
    return '"format" is followed by the format, 9 a digit, A a letter and * either, as in "plate: text format AA-9999"';
  const format = decode(FieldFormat)(value);
  return E.isLeft(format) ? `the format ${format.left[0]!.message}` : { format: format.right };
};

/** What a word and the one after it add (`min 2`, `max 40`, `format AA-9999`, `from today`, `to 2030-12-31`), or why not. */
const pairOf = (
  type: EditorField['type'],
  word: string,
  value: string | undefined,
): Partial<EditorField> | string => {
  if (word === 'format') return formatOf(type, value);
  if (word === 'max' || word === 'min') {
    if (type !== 'text')
      return `only a text field has a length limit, as in "${word === 'min' ? 'code: text min 6' : 'name: text max 40'}"`;
    const count = countOf(value);
    if (count === undefined)
      return word === 'max'
        ? '"max" is followed by the most characters it takes, as in "name: text max 40"'
        : '"min" is followed by the fewest characters it takes, as in "code: text min 6"';
    return word === 'max' ? { max_length: count } : { min_length: count };
  }
  if (type !== 'date') return `only a date has "${word}", as in "start_on: date from today"`;
  if (value === undefined || !isDateBound(value))
    return `"${word}" is followed by a date as YYYY-MM-DD, "today", or "today+N" or "today-N" days, as in "start_on: date ${word} today"`;
  return word === 'from' ? { earliest: value } : { latest: value };
};

/** A choice's options as typed between brackets, `[Basic | Pro plan]`, or why not. */
const optionsOf = (listed: string): readonly string[] | string => {
  const options = listed.split('|').map((o) => o.trim());
  if (options.some((o) => o === '')) return 'an option between "|" is empty';
  const twice = options.find((o, i) => options.indexOf(o) !== i);
  return twice === undefined ? options : `the option "${twice}" is listed twice`;
};

/**
 * The first of `errors` (by path, the API's and the page's own) about the fields `raw`
 * declared, or undefined: an API refusal at `fields[i]` names the line that wrote field
 * `i` (blank lines declare none), so a field's problem is found among many lines.
 */
export const fieldsProblem = (raw: string, errors: ReadonlyMap<string, string>): string | undefined => {
  const found = [...errors].find(([path]) => path.startsWith('fields'));
  if (found === undefined) return undefined;
  const [path, message] = found;
  const index = /^fields\[(\d+)\]/.exec(path)?.[1];
  const lines = raw.split(/\r?\n/).flatMap((line, i) => (line.trim() === '' ? [] : [i + 1]));
  const line = index === undefined ? undefined : lines[Number(index)];
  return line === undefined ? message : `line ${line}: ${message}`;
};

/**
 * Whose fields the lines declare: an HTML template's, or rules for a PDF's own (ADR 3670),
 * whose choices keep the PDF's options.
 */
export type FieldsOf = 'html' | 'pdf';

/** One line's field, or why not (without its line number). */
const fieldOf = (line: string, of: FieldsOf): EditorField | string => {
  const match = /^\s*([^:]+?)\s*:\s*(\w+)\s*(?:\[([^\]]*)\])?([^[\]]*)$/.exec(line);
  const type = FIELD_TYPES.find((t) => t === match?.[2]);
  if (match === null || type === undefined) return `must be "name: type" with ${SYNTAX}`;
  let field: EditorField = { name: match[1]!, type };
  if (type === 'choice' && of === 'pdf') {
    if (match[3] !== undefined)
      return `a PDF's choice keeps its own options: write "${field.name}: choice optional"`;
  } else if (type === 'choice') {
    if (match[3] === undefined)
      return 'a choice lists its options in brackets, as in "plan: choice [Basic | Pro]"';
    const options = optionsOf(match[3]);
    if (typeof options === 'string') return options;
    field = { ...field, options };
  } else if (match[3] !== undefined) return 'only a choice lists options in brackets';
  // `if married` or `if plan = Pro` ends the line (ADR 3710): what follows is a name, and an option.
  const at = /(?:^|\s)if(?:\s+|$)/.exec(match[4]!);
  const rest = at === null ? match[4]! : match[4]!.slice(0, at.index);
  const condition = at === null ? undefined : match[4]!.slice(at.index + at[0].length);
  if (condition !== undefined) {
    const shown = shownIfOf(type, condition);
    if (typeof shown === 'string') return shown;
    field = { ...field, shown_if: shown };
  }
  const words = rest
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const paired = ['min', 'max', 'format', 'from', 'to'].includes(word);
    const added = paired ? pairOf(type, word, words[++i]) : wordOf(type, word);
    if (typeof added === 'string') return added;
    field = { ...field, ...added };
  }
  const { earliest, latest, min_length: min, max_length: max } = field;
  if (min !== undefined && max !== undefined && min > max) return `"min ${min}" is more than "max ${max}"`;
  if (earliest !== undefined && latest !== undefined && boundsCross(earliest, latest))
    return `"to ${latest}" is before "from ${earliest}"`;
  return field;
};

/**
 * Signer fields typed one per line as `name: type`, then what adds to it (ADR 3640): a
 * choice's options in brackets (`plan: choice [Basic | Pro] optional`), a text field's
 * kind of value (`zip: text zip_code`, ADR 3600) or format (`plate: text format AA-9999`,
 * ADR 3870) and limits (`name: text min 2 max 40`, ADR 3660), a
 * date's bounds (`start_on: date from today to 2030-12-31`, ADR 3620), `optional` for a
 * text field, choice or date the signer may leave empty, `required` for a checkbox they
 * must tick (ADR 3610). A line that is not is named in the error. Rules for a PDF's own
 * fields (`of` 'pdf', ADR 3670) are written the same way, but a choice lists no options.
 */
export const parseFields = (
  raw: string,
  of: FieldsOf = 'html',
): { fields: EditorField[] } | { error: string } => {
  const fields: EditorField[] = [];
  for (const [i, line] of raw.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const field = fieldOf(line, of);
    if (typeof field === 'string')
      return { error: field.startsWith('must be') ? `line ${i + 1} ${field}` : `line ${i + 1}: ${field}` };
    fields.push(field);
  }
  return { fields };
};

/**
 * The fields as the editor shows them: each line as `parseFields` reads it back; for a
 * PDF's (`of` 'pdf', ADR 3670), a choice without the options it keeps from the file.
 */
export const fieldsText = (
  fields: readonly {
    readonly name: string;
    readonly type: string;
    readonly options?: readonly string[];
    readonly validation?: string;
    readonly format?: string;
    readonly min_length?: number;
    readonly max_length?: number;
    readonly earliest?: string;
    readonly latest?: string;
    readonly required?: boolean;
    readonly shown_if?: EditorShownIf;
    readonly conceal?: boolean;
  }[],
  of: FieldsOf = 'html',
): string =>
  fields
    .map((f) =>
      [
        `${f.name}: ${f.type}`,
        f.options === undefined || of === 'pdf' ? '' : `[${f.options.join(' | ')}]`,
        f.validation ?? '',
        f.format === undefined ? '' : `format ${f.format}`,
        f.min_length === undefined ? '' : `min ${String(f.min_length)}`,
        f.max_length === undefined ? '' : `max ${String(f.max_length)}`,
        f.earliest === undefined ? '' : `from ${f.earliest}`,
        f.latest === undefined ? '' : `to ${f.latest}`,
        f.required === undefined ? '' : f.required ? 'required' : 'optional',
        f.conceal === true ? 'conceal' : '',
        f.shown_if === undefined ? '' : `if ${shownIfText(f.shown_if)}`,
      ]
        .filter((part) => part !== '')
        .join(' '),
    )
    .join('\n');

/**
 * Whether `fieldsText` writes a field so that `parseFields` reads it back the same: every
 * field the API takes, but for a choice option holding "|", a bracket or a line break, or
 * spaces at its ends, which the editor's brackets cannot hold, a name holding ":" or
 * spaces at its ends, and a format holding a space or a bracket (each left to the API's `PUT`).
 */
export const writtenWhole = (f: ContractFieldView): boolean =>
  (f.options ?? []).every((o) => o === o.trim() && !/[|[\]\r\n]/.test(o)) &&
  (f.format === undefined || !/[\s[\]]/.test(f.format)) &&
  nameWritten(f.name) &&
  (f.shown_if === undefined || shownIfWritten(f.shown_if));
