import { TextValidation } from '@esign/contracts';
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

/** A signer field as the editor writes it: a type, and for text what its value must look like. */
export interface EditorField {
  readonly name: string;
  readonly type: (typeof FIELD_TYPES)[number];
  readonly validation?: TextValidation;
}

const KINDS = Object.keys(TextValidation.keys);

/**
 * Signer fields typed one per line as `name: type`, or `name: text kind` for a text field
 * that asks for a kind of value (ADR 3600); a line that is not is named in the error.
 */
export const parseFields = (raw: string): { fields: EditorField[] } | { error: string } => {
  const fields: EditorField[] = [];
  const lines = raw.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const match = /^\s*([^:]+?)\s*:\s*(\w+)(?:\s+(\w+))?\s*$/.exec(line);
    const type = FIELD_TYPES.find((t) => t === match?.[2]);
    if (match === null || type === undefined)
      return {
        error: `line ${i + 1} must be "name: type" with type text, checkbox, date, signature or date_signed`,
      };
    const validation = match[3];
    if (validation !== undefined && type !== 'text')
      return {
        error: `line ${i + 1}: only a text field asks for a kind of value, as in "zip: text zip_code"`,
      };
    if (validation !== undefined && !TextValidation.is(validation))
      return { error: `line ${i + 1}: a text field's kind of value must be ${KINDS.join(', ')}` };
    fields.push({ name: match[1]!, type, ...(validation !== undefined && { validation }) });
  }
  return { fields };
};

export const fieldsText = (fields: readonly { name: string; type: string; validation?: string }[]): string =>
  fields.map((f) => `${f.name}: ${f.type}${f.validation === undefined ? '' : ` ${f.validation}`}`).join('\n');

/** Marks up a read-only source view. */
export const sourceView = (text: string): Html => html`<pre class="highlight">${highlightTokens(text)}</pre>`;
