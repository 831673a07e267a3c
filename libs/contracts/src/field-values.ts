import * as t from 'io-ts';
import { RequestState } from './api.js';
import { Page } from './paging.js';
import { nullable } from './primitives.js';
import { TemplateFieldType } from './templates.js';

/**
 * One field of a Request with its value as the executed document shows it (ADR 3730): what
 * its signer entered once they signed (an optional field left empty, or one not asked for,
 * ADR 3710, as `""`; a checkbox as a boolean; a `date_signed` as the date they signed on; a
 * signature as the name they typed), else its pre-filled value, else null. A value the
 * executed document conceals (ADR 3740) is answered whole.
 */
export const FieldValueView = t.type({
  name: t.string,
  /** What the signer was asked for: the field's kind on the Request's contracts. */
  type: TemplateFieldType,
  /** The `signer_id` of the signer who fills it in; null when nobody does. */
  assigned_to: nullable(t.string),
  value: nullable(t.union([t.string, t.boolean])),
  /** When its signer signed, and so entered `value`; null until then. */
  filled_at: nullable(t.string),
});
export type FieldValueView = t.TypeOf<typeof FieldValueView>;

/** `GET /v1.1/requests/:id/field_values` (ADR 3730): every field of the Request, in its order. */
export const RequestFieldValues = t.type({ data: t.array(FieldValueView) });
export type RequestFieldValues = t.TypeOf<typeof RequestFieldValues>;

/**
 * One sent Request made with a template, and what its signers entered in that template's
 * fields (ADR 3780): the fields in the template's order, each as `FieldValueView` answers it.
 */
export const TemplateRequestValues = t.type({
  request_id: t.string,
  title: nullable(t.string),
  state: RequestState,
  sent_at: t.string,
  completed_at: nullable(t.string),
  fields: t.array(FieldValueView),
});
export type TemplateRequestValues = t.TypeOf<typeof TemplateRequestValues>;

/** `GET /v1.1/contracts/:id/field_values` (ADR 3780): the template's sent Requests, newest first, a page at a time. */
export const TemplateFieldValuesList = Page(TemplateRequestValues);
export type TemplateFieldValuesList = t.TypeOf<typeof TemplateFieldValuesList>;
