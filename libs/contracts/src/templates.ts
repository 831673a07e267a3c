import * as t from 'io-ts';
import { Page } from './paging.js';
import {
  boundedArray,
  boundedString,
  partialUpdate,
  PositiveInt,
  refine,
  strict,
  withSchema,
} from './primitives.js';
import { ContractFieldView, DeclaredField, TEMPLATE_LIMITS } from './template-fields.js';

export * from './template-fields.js';

const TemplateName = boundedString(1, TEMPLATE_LIMITS.name, 'TemplateName');

export const CreateHtmlContractBody = strict(
  {
    type: t.literal('html'),
    name: TemplateName,
    html: boundedString(1, TEMPLATE_LIMITS.html, 'Html'),
  },
  { fields: boundedArray(DeclaredField, TEMPLATE_LIMITS.fields, 'DeclaredFields') },
  'CreateHtmlContractBody',
);
export type CreateHtmlContractBody = t.TypeOf<typeof CreateHtmlContractBody>;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A PDF file in standard base64 (JSON carries no raw bytes); its first bytes must be `%PDF-`. */
export const Base64Pdf = refine(
  t.string,
  (s): s is string => s.length >= 8 && BASE64.test(s) && atob(s.slice(0, 8)).startsWith('%PDF-'),
  'must be a PDF file encoded in base64',
  'Base64Pdf',
  {
    contentEncoding: 'base64',
    contentMediaType: 'application/pdf',
    description: 'A PDF file in standard base64.',
  },
);

export const CreatePdfContractBody = strict(
  { type: t.literal('pdf'), name: TemplateName, pdf: Base64Pdf },
  {
    /**
     * Rules for some of the PDF's own form fields, each named as in the file (ADR 3670): a
     * text field's kind of value, limits, `required`, or the type `date` or `date_signed`; a
     * checkbox's or a choice's `required`. A choice keeps the PDF's options.
     */
    fields: boundedArray(DeclaredField, TEMPLATE_LIMITS.fields, 'DeclaredFields'),
  },
  'CreatePdfContractBody',
);
export type CreatePdfContractBody = t.TypeOf<typeof CreatePdfContractBody>;

export type CreateContractBody = CreateHtmlContractBody | CreatePdfContractBody;

/**
 * `PATCH /v1.1/contracts/:id` body (ADR 3890): a draft template's name, its fields (an HTML
 * template's declared fields, or a PDF's rules for its own, ADR 3670), or both, without its
 * document. `fields` replaces them whole, as a `PUT`'s does; `[]` removes them all.
 */
export const PatchContractBody = partialUpdate(
  { name: TemplateName, fields: boundedArray(DeclaredField, TEMPLATE_LIMITS.fields, 'DeclaredFields') },
  'PatchContractBody',
);
export type PatchContractBody = t.TypeOf<typeof PatchContractBody>;

export const TemplateKind = t.keyof({ html: null, pdf: null }, 'TemplateKind');

/**
 * `POST /v1.1/sites/:id/contracts` body, chosen by `type`. Decoded by hand rather than
 * as a union so that an error names the offending field of the chosen kind, not
 * "must be X or Y" for the whole body.
 */
export const CreateContractBody = withSchema(
  new t.Type<CreateContractBody, unknown, unknown>(
    'CreateContractBody',
    (u): u is CreateContractBody => CreateHtmlContractBody.is(u) || CreatePdfContractBody.is(u),
    (u, c) => {
      if (typeof u !== 'object' || u === null || Array.isArray(u))
        return t.failure(u, c, 'must be an object');
      const type = (u as { type?: unknown }).type;
      // The chosen codec stands in for this one in the context, so error paths read through it.
      const as = (codec: t.Mixed): t.Context => [...c.slice(0, -1), { ...c[c.length - 1]!, type: codec }];
      if (type === 'html') return CreateHtmlContractBody.validate(u, as(CreateHtmlContractBody));
      if (type === 'pdf') return CreatePdfContractBody.validate(u, as(CreatePdfContractBody));
      return t.failures([
        {
          value: type,
          context: [...c, { key: 'type', type: TemplateKind, actual: type }],
          ...(type === undefined ? {} : { message: 'must be "html" or "pdf"' }),
        },
      ]);
    },
    t.identity,
  ),
  { oneOf: [CreateHtmlContractBody, CreatePdfContractBody] },
);

/**
 * `POST /v1.1/contracts/:id/copy` (ADR 3260): the copy's name, absent the source's with
 * " (copy)"; and the Site it goes to (ADR 3320), absent the source's, where the name
 * defaults to the source's as it is.
 */
export const CopyContractBody = strict({}, { name: TemplateName, site_id: PositiveInt }, 'CopyContractBody');
export type CopyContractBody = t.TypeOf<typeof CopyContractBody>;

export const TemplateState = t.keyof({ draft: null, published: null }, 'TemplateState');
export type TemplateState = t.TypeOf<typeof TemplateState>;

/** A contract template as lists show it: everything but its document. */
export const ContractSummary = t.type({
  id: t.number,
  site_id: t.number,
  name: t.string,
  type: TemplateKind,
  state: TemplateState,
  tokens: t.array(t.string),
  fields: t.array(ContractFieldView),
  /** The HTML text or PDF file: its size and SHA-256 (hex), to tell versions apart. */
  document: t.type({ size_bytes: t.number, sha256: t.string }),
  created_at: t.string,
  updated_at: t.string,
  published_at: t.union([t.string, t.null]),
  /**
   * When a published template was archived (ADR 3250): new Requests cannot use it, and the
   * web application's lists leave it out; Requests made with it are unaffected. Null when not.
   */
  archived_at: t.union([t.string, t.null]),
});
export type ContractSummary = t.TypeOf<typeof ContractSummary>;

/** `GET /v1.1/contracts/:id`, the create and the publish answers: the summary and the HTML source. */
export const ContractView = t.intersection([ContractSummary, t.type({ html: t.union([t.string, t.null]) })]);
export type ContractView = t.TypeOf<typeof ContractView>;

export const ContractList = Page(ContractSummary);
export type ContractList = t.TypeOf<typeof ContractList>;
