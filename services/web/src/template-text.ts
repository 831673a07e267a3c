import { boundDays, conditionList, type ContractFieldView, type TextValidation } from '@esign/contracts';
import { escapeHtml, html, trusted, type Html } from './html.js';
import { namedOptions } from './field-condition-lines.js';

export * from './template-field-lines.js';

/** `{{ token }}` as the requests service reads it: a letter or `_`, then letters, digits, `_`, `.`, `-`. */
const TOKEN = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,99})\s*\}\}/g;

/** The token names of an HTML template, in order of first use. */
export const tokensOf = (text: string): string[] => [...new Set([...text.matchAll(TOKEN)].map((m) => m[1]!))];

/** The template's source with every token marked (the editor's highlighting, without script). */
export const highlightTokens = (text: string): Html => {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    out += escapeHtml(text.slice(last, match.index)) + `<mark class="token">${escapeHtml(match[0])}</mark>`;
    last = match.index + match[0].length;
  }
  return trusted(out + escapeHtml(text.slice(last)));
};

/**
 * The preview document: sample values (escaped) merged into the template. It is shown in
 * an iframe with an empty `sandbox` (no script, no forms, its own origin), so the
 * author's HTML cannot act on the application.
 */
export const previewDocument = (text: string, sample: Readonly<Record<string, string>>): string =>
  text.replace(TOKEN, (all, name: string) =>
    typeof sample[name] === 'string' ? escapeHtml(sample[name]) : escapeHtml(all),
  );

/** Sample render_data as typed (JSON object of strings), or why not. */
export const parseSample = (raw: string): { data: Record<string, string> } | { error: string } => {
  if (raw.trim() === '') return { data: {} };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return { error: 'must be a JSON object such as {"name": "Ada"}' };
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof v !== 'string') return { error: `the value of "${k}" must be a string` };
      data[k] = v;
    }
    return { data };
  } catch {
    return { error: 'is not valid JSON' };
  }
};

/** A starting sample: every token with an example value, so the preview shows where each goes. */
export const sampleFor = (tokens: readonly string[]): string =>
  JSON.stringify(Object.fromEntries(tokens.map((t) => [t, `Sample ${t.replace(/_/g, ' ')}`])), null, 2);

/** Marks up a read-only source view. */
export const sourceView = (text: string): Html => html`<pre class="highlight">${highlightTokens(text)}</pre>`;

const ASKS: Readonly<Record<TextValidation, string>> = {
  email_address: 'an e-mail address',
  numbers_only: 'digits only',
  phone_number: 'a 10-digit phone number',
  zip_code: 'a ZIP code',
  letters_only: 'letters only',
  ssn: 'a US Social Security number',
  ein: 'a US Employer Identification Number',
  bank_routing_number: 'a US bank routing number',
  uk_postcode: 'a UK postcode',
  ca_postal_code: 'a Canadian postal code',
  iban: 'an IBAN',
  vat_number: 'a European VAT number',
};

/** A date's bound as the field table says it: `today + 30 days` for `today+30` (ADR 3650). */
const boundText = (bound: string): string => {
  const days = boundDays(bound);
  if (days === undefined || days === 0) return bound;
  return `today ${days > 0 ? '+' : '−'} ${Math.abs(days)} ${Math.abs(days) === 1 ? 'day' : 'days'}`;
};

/** Several options, as "“Pro” or “Team”" (ADR 3790). */
const OR = new Intl.ListFormat('en', { type: 'disjunction' });

/**
 * What a condition's field, of `type`, must be: "ticked", "not ticked" (ADR 3760), "filled
 * in" or "left empty" (a text or date field, ADR 3800), or its option or options.
 */
const conditionWords = (
  equals: string | boolean | readonly string[] | undefined,
  type: string | undefined,
): string => {
  const options = namedOptions(equals);
  if (options !== undefined) return OR.format(options.map((o) => `“${o}”`));
  if (type === 'text' || type === 'date') return equals === false ? 'left empty' : 'filled in';
  return equals === false ? 'not ticked' : 'ticked';
};

/**
 * What a template's field table says of a field besides its type: a choice's options, a text
 * field's limit and kind of value (ADR 3600) or format (ADR 3870), a date's bounds (ADR 3620), and whether it is
 * optional or must be ticked (ADR 3610), concealed (ADR 3740), and when it is asked for (ADR 3710,
 * any of several conditions: ADR 3850): `fields` are the template's, among which its
 * conditions' fields are.
 */
export const fieldDetails = (f: ContractFieldView, fields: readonly ContractFieldView[]): string =>
  [
    (f.options ?? []).join(', '),
    f.min_length === undefined ? '' : `at least ${String(f.min_length)} characters`,
    f.max_length === undefined ? '' : `at most ${String(f.max_length)} characters`,
    f.validation === undefined ? '' : `asks for ${ASKS[f.validation]}`,
    f.format === undefined ? '' : `written as ${f.format}`,
    f.earliest === undefined ? '' : `on or after ${boundText(f.earliest)}`,
    f.latest === undefined ? '' : `on or before ${boundText(f.latest)}`,
    f.required === undefined ? '' : f.required ? 'must be ticked' : 'optional',
    f.conceal === true ? 'concealed in the executed document' : '',
    f.shown_if === undefined
      ? ''
      : `asked only when ${OR.format(
          conditionList(f.shown_if).map(
            (c) =>
              `“${c.field}” is ${conditionWords(c.equals, fields.find((other) => other.name === c.field)?.type)}`,
          ),
        )}`,
  ]
    .filter((part) => part !== '')
    .join('; ');
