import * as t from 'io-ts';
import { ContractFieldView, nullable } from '@esign/contracts';
import { fieldOfView, fieldView } from '../../domain/field-views.js';
import type { TemplateField } from '../../domain/template-fields.js';

/** A timestamp built by Postgres inside JSON (`+00:00` form), normalised to the wire's `...Z`. */
export const JsonTimestamp = new t.Type<string, string, unknown>(
  'JsonTimestamp',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string' && !Number.isNaN(Date.parse(u))
      ? t.success(new Date(u).toISOString())
      : t.failure(u, c, 'must be a timestamp'),
  t.identity,
);

/** Template fields are stored as the API shows them; this turns them into domain fields. */
export const fieldsFromJson = (fields: readonly ContractFieldView[]): TemplateField[] =>
  fields.map(fieldOfView);

export const fieldsToJson = (fields: readonly TemplateField[]): ContractFieldView[] => fields.map(fieldView);

export const TemplateRow = t.type({
  id: t.number,
  site_id: t.number,
  name: t.string,
  kind: t.keyof({ html: null, pdf: null }),
  state: t.keyof({ draft: null, published: null }),
  tokens: t.array(t.string),
  fields: t.array(ContractFieldView),
  document_size: t.number,
  document_sha256: t.string,
  created_at: t.string,
  updated_at: t.string,
  published_at: nullable(t.string),
  archived_at: nullable(t.string),
  deleted_at: nullable(t.string),
});
export type TemplateRow = t.TypeOf<typeof TemplateRow>;

export const TemplateWithHtmlRow = t.intersection([TemplateRow, t.type({ html: nullable(t.string) })]);

const RequestStateCodec = t.keyof({
  draft: null,
  sent: null,
  completed: null,
  cancelled: null,
  expired: null,
  declined: null,
});

const DeliveryJson = t.type({
  outcome: t.keyof({ delivered: null, failed: null, quota_exceeded: null }),
  at: JsonTimestamp,
  event_id: t.string,
  error: nullable(t.string),
});
export type DeliveryJson = t.TypeOf<typeof DeliveryJson>;

export const SignerRow = t.type({
  signer_id: t.string,
  signer_ref: t.string,
  email: nullable(t.string),
  mobile_number: nullable(t.string),
  send_email: t.boolean,
  send_sms: t.boolean,
  signing_order: nullable(t.number),
  auth_method: nullable(t.keyof({ access_code: null, email_otp: null, sms_otp: null })),
  viewed_at: nullable(JsonTimestamp),
  locale: nullable(t.string),
  state: t.keyof({ pending: null, signed: null, declined: null }),
  signed_at: nullable(JsonTimestamp),
  declined_at: nullable(JsonTimestamp),
  email_delivery: nullable(DeliveryJson),
  sms_delivery: nullable(DeliveryJson),
  link_version: t.number,
  link_issued_at: nullable(JsonTimestamp),
  placed_at_version: t.number,
});

/** A Request with its contracts, signers and fields, assembled by one query as JSON. */
export const RequestRow = t.type({
  id: t.string,
  site_id: t.number,
  site_name: t.string,
  site_locale: nullable(t.string),
  created_by: nullable(t.string),
  creator_email: nullable(t.string),
  state: RequestStateCodec,
  render_data: t.record(t.string, t.string),
  redirect_url: nullable(t.string),
  expires_at: nullable(t.string),
  created_at: t.string,
  updated_at: t.string,
  sent_at: nullable(t.string),
  cancelled_at: nullable(t.string),
  expired_at: nullable(t.string),
  completed_at: nullable(t.string),
  declined_at: nullable(t.string),
  last_reminded_at: nullable(t.string),
  remind_count: t.number,
  reminder_interval_days: nullable(t.number),
  next_reminder_at: nullable(t.string),
  test_mode: t.boolean,
  cc_emails: t.array(t.string),
  message: nullable(t.string),
  title: nullable(t.string),
  subject: nullable(t.string),
  allow_reassign: t.boolean,
  copied_from: nullable(t.string),
  bulk_send_id: nullable(t.string),
  version: t.number,
  contracts: t.array(t.type({ id: t.number, name: t.string })),
  signers: t.array(SignerRow),
  branding: nullable(
    t.type({
      display_name: nullable(t.string),
      accent_color: nullable(t.string),
      reply_to: nullable(t.string),
      email_footer: nullable(t.string),
      logo_sha256: nullable(t.string),
      updated_at: JsonTimestamp,
    }),
  ),
  fields: t.array(
    t.type({
      name: t.string,
      default_value: nullable(t.union([t.string, t.boolean])),
      assigned_to: nullable(t.string),
    }),
  ),
});
export type RequestRow = t.TypeOf<typeof RequestRow>;

export const Count = t.type({ total: t.number });

/** A `LIKE`/`ILIKE` pattern matching text that contains `search`, its `%`, `_` and `\` literal. */
export const containsPattern = (search: string): string => `%${search.replace(/[\\%_]/g, '\\$&')}%`;

/** A bytea column: node-postgres gives a Buffer. */
export const Bytes = new t.Type<Uint8Array, Uint8Array, unknown>(
  'Bytes',
  (u): u is Uint8Array => u instanceof Uint8Array,
  (u, c) => (u instanceof Uint8Array ? t.success(u) : t.failure(u, c, 'must be bytes')),
  t.identity,
);
