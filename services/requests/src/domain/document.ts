import { canonicalJson, escapeHtml } from '@esign/contracts';
import type { TemplateKind } from './contract-template.js';
import { isDateKind, type TemplateField } from './template-fields.js';
import type { RequestField, SignatureRequest } from './signature-request.js';

/** Text as HTML (one definition, in the contracts; the signer pages import it from here). */
export { escapeHtml };

/**
 * An HTML contract with its `render_data` merged: every `{{ token }}` is replaced by the
 * HTML-escaped value (a token without a value by nothing), so render_data can only ever
 * add text, never markup. The scan is the one `parseTokens` validated the template with.
 */
export const mergeHtml = (html: string, renderData: Readonly<Record<string, string>>): string => {
  let out = '';
  let from = 0;
  for (;;) {
    const open = html.indexOf('{{', from);
    const close = open === -1 ? -1 : html.indexOf('}}', open + 2);
    if (close === -1) return out + html.slice(from);
    const name = html.slice(open + 2, close).trim();
    const value = Object.hasOwn(renderData, name) ? renderData[name]! : '';
    out += html.slice(from, open) + escapeHtml(value);
    from = close + 2;
  }
};

/** A field of a Request with what its contracts say it is (a name on two contracts has two definitions). */
export interface TypedField extends RequestField {
  /** Its position among the Request's fields: how forms and the audit trail name it. */
  readonly index: number;
  /** Every definition of the name on the Request's contracts, in contract order; a value must fit all. */
  readonly definitions: readonly TemplateField[];
}

export type FieldKind = TemplateField['type'];

/**
 * A field's kind: its contracts agree on it (`typeClash`), except that a PDF's text field
 * may share a date field's name, and then the date kind is the field's (ADRs 3570, 3580).
 */
export const kindOf = (field: TypedField): FieldKind =>
  field.definitions.find((d) => isDateKind(d.type))?.type ?? field.definitions[0]?.type ?? 'text';

/** The Request's fields with their definitions, from the contracts' templates (in contract order). */
export const typedFields = (
  request: SignatureRequest,
  templates: readonly { readonly fields: readonly TemplateField[] }[],
): TypedField[] =>
  request.fields.map((field, index) => ({
    ...field,
    index,
    definitions: templates.flatMap((t) => t.fields.filter((f) => f.name === field.name)),
  }));

/** One contract as the document-shown fingerprint names it. */
export interface ContractFingerprint {
  readonly id: number;
  readonly name: string;
  readonly kind: TemplateKind;
  /**
   * SHA-256 (hex) of what the signer is shown of it: for HTML, the UTF-8 bytes of
   * `mergeHtml(template, render_data)`; for a PDF, the template file as uploaded.
   */
  readonly sha256: string;
}

export const DOCUMENT_FORMAT = 'esign-document/1';

/**
 * "The document shown" to every signer of a Request, as canonical JSON (keys sorted, no
 * white space, UTF-8): the contracts in order with the fingerprint of each one's content,
 * and every field with its type, its pre-filled value and its signer. It is the same for
 * all signers and fixed once the Request is sent (templates and fields never change), so
 * two signers signing at once sign the same document. Its SHA-256 is the audit trail's
 * document hash; ADR 0801 gives the recipe to recompute it.
 */
export const canonicalDocument = (
  request: SignatureRequest,
  contracts: readonly ContractFingerprint[],
  fields: readonly TypedField[],
): string =>
  canonicalJson({
    format: DOCUMENT_FORMAT,
    request_id: request.id,
    contracts: contracts.map((c) => ({ id: c.id, name: c.name, kind: c.kind, sha256: c.sha256 })),
    fields: fields.map((f) => ({
      name: f.name,
      type: kindOf(f),
      value: f.defaultValue,
      assigned_to: f.assignedTo,
    })),
  });
