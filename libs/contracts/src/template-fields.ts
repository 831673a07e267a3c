import * as t from 'io-ts';
import { FieldFormat, formatIsNumeric } from './field-format.js';
import { nonEmptyArray, NonEmptyString, PositiveInt, strict } from './primitives.js';

// A template's limits, and its fields as the API takes and shows them: their types, the
// kinds of value a text field asks for, their conditions (ADRs 3710, 3850).

/** Limits on one contract template; documented in the README. */
export const TEMPLATE_LIMITS = {
  name: 200,
  html: 500_000,
  fields: 500,
  options: 100,
  tokens: 500,
  /** Conditions one field's `shown_if` may list, any of which asks for it (ADR 3850). */
  conditions: 20,
} as const;

/**
 * A file a signer uploads for an attachment field (ADR 3920): at most 10 MiB, a PDF, PNG or
 * JPEG as its first bytes show, its name as their device gave it, cut to 200 characters.
 * One submission of the signing form carries at most 25 MiB of files; a file kept from an
 * earlier one does not count.
 */
export const ATTACHMENT_LIMITS = {
  bytes: 10 * 1024 * 1024,
  fileName: 200,
  formBytes: 25 * 1024 * 1024,
} as const;

/** What an attachment may be (ADR 3920), as its first bytes show. */
export const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/**
 * What a signer can be asked to fill in. PDF form fields map onto these: text fields to
 * `text`, check boxes to `checkbox`, radio groups, drop-downs and option lists to
 * `choice`, signature fields to `signature`. Declared in an HTML template only: `date`
 * (ADR 3580), a calendar date the signer picks, and `date_signed` (ADR 3570), which nobody
 * types: it holds the date its signer signed on. `initials` (ADR 3900): the signer's
 * initials, typed once beside their signature and written in every such field of theirs;
 * a PDF's text field may be declared one. `full_name` (ADR 3910): nobody types it either: it
 * holds the name its signer typed to sign; a PDF's text field may be declared one.
 * `attachment` (ADR 3920), declared in an HTML template only: a file the signer uploads on
 * their page (a PDF, PNG or JPEG), kept with the Request; its value is the file's name.
 */
export const TemplateFieldType = t.keyof(
  {
    text: null,
    checkbox: null,
    choice: null,
    signature: null,
    date: null,
    date_signed: null,
    initials: null,
    full_name: null,
    attachment: null,
  },
  'TemplateFieldType',
);
export type TemplateFieldType = t.TypeOf<typeof TemplateFieldType>;

/**
 * What a text field's value must look like (ADR 3600), declared by an HTML template and
 * checked when its signer signs and when a value is pre-filled: `email_address`
 * (name@example.com), `numbers_only` (digits 0-9 and nothing else), `phone_number` (a US
 * number of 10 digits, written as people write them: 555-014-3000, (555) 014-3000),
 * `zip_code` (a US ZIP code, 12345 or 12345-6789); and (ADR 3680) `letters_only` (letters
 * of any alphabet, with single spaces, hyphens or apostrophes between words: Anne-Marie
 * O'Neil), `ssn` (a US Social Security number the SSA could issue, 123-45-6789 or
 * 123456789), `ein` (a US Employer Identification Number, 12-3456789) and
 * `bank_routing_number` (9 digits whose ABA check digit holds, 021000021); and (ADR 3690)
 * `uk_postcode` (SW1A 1AA), `ca_postal_code` (K1A 0B1) and `iban` (an international bank
 * account number whose ISO 13616 check digits hold, DE89 3704 0044 0532 0130 00); and (ADR
 * 3830) `vat_number` (a European VAT number with its country's prefix, DE136695976).
 */
export const TextValidation = t.keyof(
  {
    email_address: null,
    numbers_only: null,
    phone_number: null,
    zip_code: null,
    letters_only: null,
    ssn: null,
    ein: null,
    bank_routing_number: null,
    uk_postcode: null,
    ca_postal_code: null,
    iban: null,
    vat_number: null,
  },
  'TextValidation',
);
export type TextValidation = t.TypeOf<typeof TextValidation>;

/** The attributes of an HTML `<input>` for a text field's value. */
export interface TextInput {
  readonly type: 'email' | 'tel' | 'text';
  readonly inputmode?: 'numeric';
  /**
   * A code of letters and digits (a postcode, an IBAN: ADR 3690, a VAT number: ADR 3830),
   * typed as written: a phone's keyboard in capitals, no spelling fixes
   * (`autocapitalize="characters"`, `spellcheck="false"`).
   */
  readonly code?: true;
}

const VALIDATION_INPUT: Readonly<Record<TextValidation, TextInput>> = {
  email_address: { type: 'email' },
  numbers_only: { type: 'text', inputmode: 'numeric' },
  phone_number: { type: 'tel' },
  zip_code: { type: 'text', inputmode: 'numeric' },
  letters_only: { type: 'text' },
  ssn: { type: 'text', inputmode: 'numeric' },
  ein: { type: 'text', inputmode: 'numeric' },
  bank_routing_number: { type: 'text', inputmode: 'numeric' },
  uk_postcode: { type: 'text', code: true },
  ca_postal_code: { type: 'text', code: true },
  iban: { type: 'text', code: true },
  vat_number: { type: 'text', code: true },
};

/**
 * The input a text field is typed into, on the signer's page and in the web application:
 * for one asking for a kind of value, one that brings up the keyboard for it on a phone.
 * One written in a format (ADR 3870) brings up the number pad when the format holds no
 * letter, and capitals when it does. The requests service checks the value whatever the
 * browser did.
 */
export const textInputFor = (validation: TextValidation | undefined, format?: string): TextInput => {
  if (format !== undefined)
    return formatIsNumeric(format) ? { type: 'text', inputmode: 'numeric' } : { type: 'text', code: true };
  return validation === undefined ? { type: 'text' } : VALIDATION_INPUT[validation];
};

/**
 * When a field is asked for (ADR 3710): only while another field of the same template, asked
 * for itself (ADR 3810), is ticked (a checkbox; not ticked with `equals: false`, ADR 3760), is
 * filled in (a text or date field; left empty with `equals: false`, ADR 3800) or has the
 * option `equals` chosen (a choice), or any of the options `equals` lists (ADR 3790).
 */
export const ShownIf = strict(
  { field: NonEmptyString },
  // Any strings: the template's fields say which they may be (options of the choice it names).
  { equals: t.union([t.string, t.boolean, t.array(t.string)]) },
  'ShownIf',
);
export type ShownIf = t.TypeOf<typeof ShownIf>;

/**
 * A field's `shown_if`: one condition, or a list of them on different fields, any of which
 * holding asks for it ("when A or B", ADR 3850).
 */
export const ShownIfAny = t.union([
  ShownIf,
  nonEmptyArray(ShownIf, TEMPLATE_LIMITS.conditions, 'Conditions'),
]);
export type ShownIfAny = t.TypeOf<typeof ShownIfAny>;

/** The conditions of a `shown_if`, one or several, as a list. */
export const conditionList = <C>(shownIf: C | readonly C[]): readonly C[] =>
  Array.isArray(shownIf) ? shownIf : [shownIf as C];

/** A field declared for an HTML template, or rules for a PDF's own field (ADR 3670). */
export const DeclaredField = strict(
  { name: NonEmptyString, type: TemplateFieldType },
  {
    options: nonEmptyArray(NonEmptyString, TEMPLATE_LIMITS.options, 'Options'),
    max_length: PositiveInt,
    /** A text field's fewest characters, when filled in (ADR 3660); not more than `max_length`. */
    min_length: PositiveInt,
    validation: TextValidation,
    /**
     * How a text field's value is written, character by character (ADR 3870): `9` a digit,
     * `A` a letter, `*` either, a backslash before a character typed as it is, any other character
     * itself: `AA-9999`. Not with `validation`; its length within `max_length`.
     */
    format: FieldFormat,
    /**
     * Whether the signer must fill it in (ADR 3610): a text field, choice or date is
     * required unless `false`; a checkbox must be ticked only when `true`. Not on a
     * signature or a date signed.
     */
    required: t.boolean,
    /**
     * A date field's earliest and latest dates the signer may pick (ADR 3620): a date as
     * YYYY-MM-DD, or `today`, the day they sign (UTC), or that day moved by whole days,
     * `today+30` or `today-7` (ADR 3650; `date-bounds.ts`).
     */
    earliest: t.string,
    latest: t.string,
    /**
     * Asked for only while another field is ticked, or not ticked (ADR 3760), or has an
     * option chosen (ADR 3710), or one of several (ADR 3790), or is filled in, or left empty
     * (ADR 3800): a text field, checkbox, choice or date. Left empty, and not checked, while
     * it is not. A list of such conditions asks for it while any holds (ADR 3850).
     */
    shown_if: ShownIfAny,
    /**
     * A text field whose value the executed document conceals (ADR 3740): every letter and
     * digit but the last four as `*` (`***-**-6789`), all of them when it has fewer than
     * eight. `GET /v1.1/requests/:id/field_values` answers it whole.
     */
    conceal: t.boolean,
  },
  'DeclaredField',
);
export type DeclaredField = t.TypeOf<typeof DeclaredField>;

/** One condition as the API shows a field's `shown_if` (ADR 3710). */
const ShownIfView = t.intersection([
  t.type({ field: t.string }),
  t.partial({ equals: t.union([t.string, t.boolean, t.array(t.string)]) }),
]);

export const ContractFieldView = t.intersection([
  t.type({ name: t.string, type: TemplateFieldType }),
  t.partial({
    options: t.array(t.string),
    max_length: t.number,
    /** A text field's fewest characters, when filled in (ADR 3660). */
    min_length: t.number,
    validation: TextValidation,
    /** How a text field's value is written, character by character (ADR 3870). */
    format: t.string,
    /** Present only where it differs from the type's rule (ADR 3610). */
    required: t.boolean,
    /** A date field's bounds (ADRs 3620, 3650): YYYY-MM-DD, `today`, `today+N` or `today-N`. */
    earliest: t.string,
    latest: t.string,
    /**
     * Asked for only while another field, asked for itself, is ticked, or not, or has one of
     * these options chosen, or is filled in, or not (ADRs 3710, 3760, 3790, 3800, 3810); a
     * list, while any of its conditions holds (ADR 3850).
     */
    shown_if: t.union([ShownIfView, t.array(ShownIfView)]),
    /** A text field whose value the executed document conceals (ADR 3740); only when true. */
    conceal: t.boolean,
  }),
]);
export type ContractFieldView = t.TypeOf<typeof ContractFieldView>;
