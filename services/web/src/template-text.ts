import { TextValidation, type ContractFieldView } from '@esign/contracts';
import { escapeHtml, html, trusted, type Html } from './html.js';

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

const FIELD_TYPES = ['text', 'checkbox', 'date', 'signature', 'date_signed'] as const;

/**
 * A signer field as the editor writes it: a type; for text, what its value must look like
 * (ADR 3600); whether it must be filled in, where that is not its type's rule (ADR 3610).
 */
export interface EditorField {
  readonly name: string;
  readonly type: (typeof FIELD_TYPES)[number];
  readonly validation?: TextValidation;
  readonly required?: boolean;
}

const KINDS = Object.keys(TextValidation.keys);

/** What one word after a field's type adds to it, or why it cannot. */
const wordOf = (type: EditorField['type'], word: string): Partial<EditorField> | string => {
  if (TextValidation.is(word))
    return type === 'text'
      ? { validation: word }
      : 'only a text field asks for a kind of value, as in "zip: text zip_code"';
  if (word === 'optional')
    return type === 'text' || type === 'date'
      ? { required: false }
      : 'only a text or date field can be optional';
  if (word === 'required')
    return type === 'checkbox'
      ? { required: true }
      : 'only a checkbox is marked required: other fields are, unless optional';
  return `"${word}" is not known: after the type write a text field's kind of value (${KINDS.join(', ')}), "optional" or, for a checkbox, "required"`;
};

/**
 * Signer fields typed one per line as `name: type`, then words that add to it: a text
 * field's kind of value (`zip: text zip_code`, ADR 3600), `optional` for a text field or
 * date the signer may leave empty, `required` for a checkbox they must tick (ADR 3610).
 * A line that is not is named in the error.
 */
export const parseFields = (raw: string): { fields: EditorField[] } | { error: string } => {
  const fields: EditorField[] = [];
  const lines = raw.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const match = /^\s*([^:]+?)\s*:\s*(\w+)((?:\s+\w+)*)\s*$/.exec(line);
    const type = FIELD_TYPES.find((t) => t === match?.[2]);
    if (match === null || type === undefined)
      return {
        error: `line ${i + 1} must be "name: type" with type text, checkbox, date, signature or date_signed`,
      };
    let field: EditorField = { name: match[1]!, type };
    for (const word of match[3]!
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '')) {
      const added = wordOf(type, word);
      if (typeof added === 'string') return { error: `line ${i + 1}: ${added}` };
      field = { ...field, ...added };
    }
    fields.push(field);
  }
  return { fields };
};

/** The fields as the editor shows them: each line as `parseFields` reads it back. */
export const fieldsText = (
  fields: readonly { name: string; type: string; validation?: string; required?: boolean }[],
): string =>
  fields
    .map((f) => {
      const requirement = f.required === undefined ? '' : f.required ? ' required' : ' optional';
      return `${f.name}: ${f.type}${f.validation === undefined ? '' : ` ${f.validation}`}${requirement}`;
    })
    .join('\n');

/** Marks up a read-only source view. */
export const sourceView = (text: string): Html => html`<pre class="highlight">${highlightTokens(text)}</pre>`;

const ASKS: Readonly<Record<TextValidation, string>> = {
  email_address: 'an e-mail address',
  numbers_only: 'digits only',
  phone_number: 'a 10-digit phone number',
  zip_code: 'a ZIP code',
};

/**
 * What a template's field table says of a field besides its type: a choice's options, a text
 * field's limit and kind of value (ADR 3600), a date's bounds (ADR 3620), and whether it is
 * optional or must be ticked (ADR 3610).
 */
export const fieldDetails = (f: ContractFieldView): string =>
  [
    (f.options ?? []).join(', '),
    f.max_length === undefined ? '' : `at most ${String(f.max_length)} characters`,
    f.validation === undefined ? '' : `asks for ${ASKS[f.validation]}`,
    f.earliest === undefined ? '' : `on or after ${f.earliest}`,
    f.latest === undefined ? '' : `on or before ${f.latest}`,
    f.required === undefined ? '' : f.required ? 'must be ticked' : 'optional',
  ]
    .filter((part) => part !== '')
    .join('; ');
