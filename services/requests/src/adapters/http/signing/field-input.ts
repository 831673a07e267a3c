import {
  formatPlaceholders,
  resolveBound,
  textInputFor,
  type MessageKey,
  type TextValidation,
  type Translator,
} from '@esign/contracts';
import { kindOf, type TypedField } from '../../../domain/document.js';
import { textLimit, textMinimum, type SubmissionProblem } from '../../../domain/signing.js';
import { isRequired } from '../../../domain/template-fields.js';
import type { KeptAttachment } from '../../../ports/attachment-store.js';
import { safe, type Html } from './html.js';
import { labelOf } from './layout.js';

/** What the browser sent back, to show again beside the problems. */
export interface Submitted {
  readonly values: ReadonlyMap<number, string>;
  readonly typedName: string;
  /** The initials typed beside the name (ADR 3900). */
  readonly initials?: string;
  readonly consent: boolean;
  readonly reason: string;
  /** Whom the signer asked to sign in their place (ADR 3560), as typed. */
  readonly reassignEmail?: string;
  /** Their note to them (ADR 3630), as typed. */
  readonly reassignNote?: string;
}

/** What a signing form posted, to show it again when the act is refused. */
export const submittedOf = (form: URLSearchParams): Submitted => {
  const values = new Map<number, string>();
  for (const [key, value] of form) {
    const match = /^f(\d{1,4})$/.exec(key);
    if (match !== null && !values.has(Number(match[1]))) values.set(Number(match[1]), value);
  }
  return {
    values,
    typedName: form.get('typed_name') ?? '',
    initials: form.get('initials') ?? '',
    consent: form.get('consent') === 'yes',
    reason: form.get('reason') ?? '',
  };
};

/** What a text field asking for a kind of value (ADR 3600) tells its signer before they type. */
const ASKS: Readonly<Record<TextValidation, MessageKey>> = {
  email_address: 'page.asks.email',
  numbers_only: 'page.asks.digits',
  phone_number: 'page.asks.phone',
  zip_code: 'page.asks.zip',
  letters_only: 'page.asks.letters',
  ssn: 'page.asks.ssn',
  ein: 'page.asks.ein',
  bank_routing_number: 'page.asks.routing',
  uk_postcode: 'page.asks.ukPostcode',
  ca_postal_code: 'page.asks.caPostalCode',
  iban: 'page.asks.iban',
  vat_number: 'page.asks.vatNumber',
};

/** A text field's rule `key` (ADRs 3600, 3870): from the first of its definitions that has one. */
const firstRule = <K extends 'validation' | 'format'>(field: TypedField, key: K) => {
  for (const d of field.definitions) if (d.type === 'text' && d[key] !== undefined) return d[key];
  return undefined;
};

const PLACEHOLDER_SAID: Readonly<Record<'digit' | 'letter' | 'either', MessageKey>> = {
  digit: 'page.format.digit',
  letter: 'page.format.letter',
  either: 'page.format.either',
};

/** What a field with a format tells its signer: the format, and what its 9, A and * stand for. */
const formatHint = ({ t }: Translator, format: string): string =>
  t('page.asks.format', {
    format,
    legend: formatPlaceholders(format)
      .map((kind) => t(PLACEHOLDER_SAID[kind]))
      .join(', '),
  });

/** A date picker's `min` and `max` (ADRs 3620, 3650): the tightest bounds of the field's definitions. */
const dateBounds = (field: TypedField, today: string | undefined): Html => {
  const bounds = (which: 'earliest' | 'latest') =>
    field.definitions.flatMap((d) => {
      const bound = d.type === 'date' ? resolveBound(d[which], today) : undefined;
      return bound === undefined ? [] : [bound];
    });
  const min = bounds('earliest').sort().at(-1);
  const max = bounds('latest').sort().at(0);
  return safe`${min === undefined ? '' : safe` min="${min}"`}${max === undefined ? '' : safe` max="${max}"`}`;
};

const fieldId = (field: TypedField) => `f-${field.index}`;

/** What a file input offers to choose (ADR 3920): the types, and their names' endings for file pickers that go by them. */
const ACCEPT = 'application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg';

/** A file's size as people read it: 340 KB, 2.4 MB. */
export const sizeText = (bytes: number): string =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * An attachment field's file input (ADR 3920), saying what it takes and, once a file is kept,
 * which; required only while none is.
 */
const fileInput = (
  { t }: Translator,
  field: TypedField,
  marker: Html | '',
  error: { readonly line: Html | ''; readonly id: string } | undefined,
  kept: KeptAttachment | undefined,
): Html => {
  const id = fieldId(field);
  const keptLine =
    kept === undefined
      ? ''
      : safe`<p class="hint kept" id="${id}-kept">${t('page.attachmentKept', { file: kept.fileName, size: sizeText(kept.size) })}</p>`;
  const described = [`${id}-hint`, kept === undefined ? '' : `${id}-kept`, error?.id ?? '']
    .filter((s) => s !== '')
    .join(' ');
  const required = field.definitions.some(isRequired) && kept === undefined;
  return safe`<div class="field-block"><label class="field" for="${id}">${labelOf(field.name)}${marker}</label><p class="hint" id="${id}-hint">${t('page.attachmentHint')}</p>${keptLine}${error?.line ?? ''}<input type="file" id="${id}" name="f${field.index}" accept="${ACCEPT}"${required ? safe` required` : ''}${error === undefined ? '' : safe` aria-invalid="true"`} aria-describedby="${described}"></div>`;
};
/** The message of the first problem `match` finds, if any. */
export const problemAt = (problems: readonly SubmissionProblem[], match: (p: SubmissionProblem) => boolean) =>
  problems.find(match)?.message;

/** One of the signer's fields as its input, with its problem beside it. */
export const fieldInput = (
  tr: Translator,
  field: TypedField,
  submitted: Submitted | undefined,
  error: string | undefined,
  /** The day the page is shown, for a date's bound of `today` (ADR 3620). */
  today?: string,
  /** The file kept for an attachment field (ADR 3920). */
  kept?: KeptAttachment,
): Html => {
  const { t } = tr;
  const required = t('page.required');
  const id = fieldId(field);
  const name = `f${field.index}`;
  const label = labelOf(field.name);
  const errorId = `${id}-error`;
  const errorLine =
    error === undefined
      ? ''
      : safe`<p class="error" id="${errorId}">${t('page.problem', { label, message: error })}</p>`;
  const invalid = error === undefined ? '' : safe` aria-invalid="true" aria-describedby="${errorId}"`;
  const raw = submitted?.values.get(field.index);
  const definition = field.definitions[0];
  // What the signer must fill in or tick is marked so; other fields may be left empty (ADR 3610).
  const needed = field.definitions.some(isRequired);
  const marker = needed ? safe` <span class="req">${required}</span>` : '';
  const requiredAttribute = needed ? safe` required` : '';
  switch (kindOf(field)) {
    case 'attachment':
      return fileInput(
        tr,
        field,
        marker,
        error === undefined ? undefined : { line: errorLine, id: errorId },
        kept,
      );
    case 'checkbox': {
      const checked = submitted === undefined ? field.defaultValue === true : raw !== undefined && raw !== '';
      return safe`<div class="field-block">${errorLine}<div class="check"><input type="checkbox" id="${id}" name="${name}" value="on"${
        checked ? safe` checked` : ''
      }${requiredAttribute}${invalid}><label for="${id}">${label}${marker}</label></div></div>`;
    }
    case 'choice': {
      const options = definition?.type === 'choice' ? definition.options : [];
      const selected = submitted === undefined ? field.defaultValue : (raw ?? null);
      // An optional group's radios can be unselected through its "no answer" (ADR 3610).
      const none = needed
        ? ''
        : safe`<div class="option"><input type="radio" id="${id}-none" name="${name}" value=""${
            selected === null || selected === '' ? safe` checked` : ''
          }><label for="${id}-none">${t('page.noAnswer')}</label></div>`;
      if (options.length <= 6)
        return safe`<fieldset class="field-block"${invalid}><legend>${label}${marker}</legend>${errorLine}${options.map(
          (option, i) =>
            safe`<div class="option"><input type="radio" id="${id}-${i}" name="${name}" value="${option}"${requiredAttribute}${
              option === selected ? safe` checked` : ''
            }><label for="${id}-${i}">${option}</label></div>`,
        )}${none}</fieldset>`;
      return safe`<div class="field-block"><label class="field" for="${id}">${label}${marker}</label>${errorLine}<select id="${id}" name="${name}"${requiredAttribute}${invalid}><option value="">${t('page.choose')}</option>${options.map(
        (option) =>
          safe`<option value="${option}"${option === selected ? safe` selected` : ''}>${option}</option>`,
      )}</select></div>`;
    }
    default: {
      const value =
        submitted === undefined
          ? typeof field.defaultValue === 'string'
            ? field.defaultValue
            : ''
          : (raw ?? '');
      // A date (ADR 3580): the browser's date picker, which posts YYYY-MM-DD.
      if (kindOf(field) === 'date')
        return safe`<div class="field-block"><label class="field" for="${id}">${label}${marker}</label>${errorLine}<input type="date" id="${id}" name="${name}" value="${value}"${dateBounds(field, today)}${requiredAttribute}${invalid}></div>`;
      const max = textLimit(field);
      const min = textMinimum(field);
      // One asking for a kind of value says so, and brings up the keyboard for it (ADR 3600);
      // one with a minimum says it too (ADR 3660), and one with a format, that format (ADR 3870).
      const asked = firstRule(field, 'validation');
      const format = firstRule(field, 'format');
      const input = textInputFor(asked, format);
      const hintId = `${id}-hint`;
      const said = [
        asked === undefined ? '' : t(ASKS[asked]),
        format === undefined ? '' : formatHint(tr, format),
        min > 0 && format === undefined ? t('page.asks.atLeast', { min }) : '',
      ]
        .filter((s) => s !== '')
        .join('. ');
      const hint = said === '' ? '' : safe`<p class="hint" id="${hintId}">${said}</p>`;
      const described = [error === undefined ? '' : errorId, said === '' ? '' : hintId].join(' ').trim();
      const attributes = safe`${input.inputmode === undefined ? '' : safe` inputmode="${input.inputmode}"`}${
        input.code === true ? safe` autocapitalize="characters" spellcheck="false"` : ''
      }${requiredAttribute}${
        error === undefined ? '' : safe` aria-invalid="true"`
      }${described === '' ? '' : safe` aria-describedby="${described}"`}`;
      return safe`<div class="field-block"><label class="field" for="${id}">${label}${marker}</label>${hint}${errorLine}<input type="${input.type}" id="${id}" name="${name}" value="${value}"${min > 0 ? safe` minlength="${min}"` : ''} maxlength="${max}"${attributes}></div>`;
    }
  }
};
