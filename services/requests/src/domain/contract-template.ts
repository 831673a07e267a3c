import * as E from 'fp-ts/lib/Either.js';
import { TEMPLATE_LIMITS, type DeclaredField } from '@esign/contracts';
import { fieldError, type FieldError } from './paths.js';
import { declareFields, type TemplateField } from './template-fields.js';

// A template's fields are in template-fields.ts; what names them from here still finds them.
export * from './template-fields.js';
export * from './field-clashes.js';

export type TemplateKind = 'html' | 'pdf';
export type TemplateState = 'draft' | 'published';

/** What a Request needs to know about a template: enough to check its fields and tokens. */
export interface TemplateSpec {
  readonly id: number;
  readonly siteId: number;
  readonly name: string;
  readonly kind: TemplateKind;
  readonly state: TemplateState;
  readonly tokens: readonly string[];
  readonly fields: readonly TemplateField[];
  /** When a published template was archived (ADR 3250): no new Request may use it. */
  readonly archivedAt: string | null;
  /**
   * When a published template was deleted (ADR 3430): no new Request may use it and no call
   * reads it, while the Requests made with it keep it.
   */
  readonly deletedAt: string | null;
}

/** The template's document (HTML text or PDF file): its size and SHA-256, hex. */
export interface DocumentInfo {
  readonly sizeBytes: number;
  readonly sha256: string;
}

export interface ContractTemplate extends TemplateSpec {
  readonly document: DocumentInfo;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly publishedAt: string | null;
}

/** A template with its HTML text (null for a PDF), as a single read shows it. */
export interface TemplateWithHtml extends ContractTemplate {
  readonly html: string | null;
}

/** A template about to be stored; the database gives it its integer id. */
export type NewTemplate = Omit<TemplateWithHtml, 'id'>;

/** `{{ token }}`: letters, digits, `_`, `.` and `-`, starting with a letter or `_`. */
export const TOKEN_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;

/**
 * The tokens an HTML template's text refers to, in order of first use. Anything between
 * `{{` and `}}` must be a token name, and every `{{` must close: a typo in a placeholder
 * is refused when the template is made rather than rendered verbatim to a signer.
 */
export const parseTokens = (html: string): E.Either<string, readonly string[]> => {
  const tokens: string[] = [];
  let from = 0;
  for (;;) {
    const open = html.indexOf('{{', from);
    if (open === -1) break;
    const close = html.indexOf('}}', open + 2);
    if (close === -1) return E.left(`has a "{{" at offset ${open} that is never closed with "}}"`);
    const name = html.slice(open + 2, close).trim();
    if (!TOKEN_NAME.test(name)) {
      const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
      return E.left(
        `has an invalid placeholder "{{${shown}}}" at offset ${open}: a token name is a letter or _ followed by up to 99 letters, digits, _, . or -`,
      );
    }
    if (!tokens.includes(name)) tokens.push(name);
    from = close + 2;
  }
  if (tokens.length > TEMPLATE_LIMITS.tokens)
    return E.left(`has ${tokens.length} distinct tokens; at most ${TEMPLATE_LIMITS.tokens} are allowed`);
  return E.right(tokens);
};

export const newHtmlTemplate = (input: {
  readonly siteId: number;
  readonly name: string;
  readonly html: string;
  readonly fields: readonly DeclaredField[];
  readonly document: DocumentInfo;
  readonly now: string;
}): E.Either<FieldError[], NewTemplate> => {
  const tokens = parseTokens(input.html);
  const fields = declareFields(input.fields);
  const errors = [
    ...(E.isLeft(tokens) ? [fieldError('html', tokens.left)] : []),
    ...(E.isLeft(fields) ? fields.left : []),
  ];
  if (E.isLeft(tokens) || E.isLeft(fields)) return E.left(errors);
  return E.right({
    siteId: input.siteId,
    name: input.name,
    kind: 'html',
    state: 'draft',
    tokens: tokens.right,
    fields: fields.right,
    document: input.document,
    html: input.html,
    createdAt: input.now,
    updatedAt: input.now,
    publishedAt: null,
    archivedAt: null,
    deletedAt: null,
  });
};

export const newPdfTemplate = (input: {
  readonly siteId: number;
  readonly name: string;
  readonly fields: readonly TemplateField[];
  readonly document: DocumentInfo;
  readonly now: string;
}): E.Either<FieldError[], NewTemplate> =>
  input.fields.length > TEMPLATE_LIMITS.fields
    ? E.left([
        fieldError(
          'pdf',
          `has ${input.fields.length} form fields; at most ${TEMPLATE_LIMITS.fields} are allowed`,
        ),
      ])
    : E.right({
        siteId: input.siteId,
        name: input.name,
        kind: 'pdf',
        state: 'draft',
        tokens: [],
        fields: input.fields,
        document: input.document,
        html: null,
        createdAt: input.now,
        updatedAt: input.now,
        publishedAt: null,
        archivedAt: null,
        deletedAt: null,
      });

/**
 * Publishing makes a template usable in Requests. It is idempotent: publishing a
 * published template changes nothing (`changed: false`), as a retried call expects.
 */
export const publishTemplate = <T extends ContractTemplate>(
  template: T,
  now: string,
): { readonly template: T; readonly changed: boolean } =>
  template.state === 'published'
    ? { template, changed: false }
    : { template: { ...template, state: 'published', publishedAt: now, updatedAt: now }, changed: true };

/**
 * A draft template replaced by a new one made of a new body (ADR 3240): the same id, site
 * and creation time, the rest the new one's; a published template never changes.
 */
export const replaceDraft = (
  current: TemplateWithHtml,
  next: NewTemplate,
): { readonly _tag: 'Replaced'; readonly template: NewTemplate } | { readonly _tag: 'Published' } =>
  current.state === 'published'
    ? { _tag: 'Published' }
    : { _tag: 'Replaced', template: { ...next, siteId: current.siteId, createdAt: current.createdAt } };

const COPY_SUFFIX = ' (copy)';

/**
 * A copy's default name (ADR 3260): the source's with " (copy)", the source's shortened to
 * fit the limit, never inside a character that takes two UTF-16 units.
 */
export const copyName = (name: string): string => {
  if (name.length + COPY_SUFFIX.length <= TEMPLATE_LIMITS.name) return `${name}${COPY_SUFFIX}`;
  let kept = '';
  for (const ch of name) {
    if (kept.length + ch.length + COPY_SUFFIX.length > TEMPLATE_LIMITS.name) break;
    kept += ch;
  }
  return `${kept.trimEnd()}${COPY_SUFFIX}`;
};

/**
 * A new draft with a template's content (ADR 3260): its HTML and fields, or its PDF's, in
 * its Site or in `siteId` (ADR 3320); a draft, published or archived template alike. Its
 * document is the same, so its size and hash are too. Named `name`, else the source's with
 * " (copy)" beside it in its Site, and the source's as it is in another.
 */
export const copyTemplate = (
  source: TemplateWithHtml,
  name: string | undefined,
  now: string,
  siteId: number = source.siteId,
): NewTemplate => ({
  siteId,
  name: name ?? (siteId === source.siteId ? copyName(source.name) : source.name),
  kind: source.kind,
  state: 'draft',
  tokens: source.tokens,
  fields: source.fields,
  document: source.document,
  html: source.html,
  createdAt: now,
  updatedAt: now,
  publishedAt: null,
  archivedAt: null,
  deletedAt: null,
});

/** Why no new Request may be made with `template`, or undefined when one may (ADRs 3250, 3430). */
export const unusableForRequests = (template: TemplateSpec): string | undefined => {
  if (template.deletedAt !== null) return `contract template ${template.id} was deleted: use another`;
  if (template.state !== 'published')
    return `contract template ${template.id} is not published: publish it first`;
  if (template.archivedAt !== null)
    return `contract template ${template.id} is archived: unarchive it, or use another`;
  return undefined;
};
