import * as t from 'io-ts';
import { FieldEntry, LIMITS, RenderData } from './api.js';
import { EmailSubject, RequestTitle, SignerMessage } from './request-texts.js';
import {
  boundedArray,
  Email,
  IsoDateTime,
  nonEmptyArray,
  nullable,
  partialUpdate,
  PositiveInt,
  strict,
} from './primitives.js';
import { ReminderIntervalDays } from './reminders.js';

/**
 * `PATCH /v1.1/requests/:id` body (ADR 3150): an open Request's expiry (in the future, at
 * most 365 days ahead; null: never) and its automatic reminders (1 to 30 days; null:
 * none); a draft's `render_data` and `fields`, each replaced whole with the create's rules
 * (ADR 3220); an open Request's `cc`, replaced whole (ADR 3230); a draft's `message` to its
 * signers, replaced (null: removed; ADR 3380); an open Request's `title`, replaced (null:
 * removed; ADR 3390); a draft's e-mail `subject`, replaced (null: the usual one; ADR 3400);
 * whether an open Request's signers may ask someone else to sign in their place
 * (`allow_reassign`, ADR 3560). At least one of them.
 */
export const UpdateRequestBody = partialUpdate(
  {
    expires_at: nullable(IsoDateTime),
    reminder_interval_days: ReminderIntervalDays,
    render_data: RenderData,
    fields: boundedArray(FieldEntry, LIMITS.fields, 'Fields'),
    cc: boundedArray(Email, LIMITS.cc, 'CarbonCopies'),
    message: nullable(SignerMessage),
    title: nullable(RequestTitle),
    subject: nullable(EmailSubject),
    allow_reassign: t.boolean,
  },
  'UpdateRequestBody',
);

/** What a `request.updated` event says changed (ADR 3220), in the body's names. */
export const REQUEST_UPDATE_PARTS = [
  'expires_at',
  'reminder_interval_days',
  'render_data',
  'fields',
  'cc',
  'message',
  'title',
  'subject',
  'allow_reassign',
] as const;
export type RequestUpdatePart = (typeof REQUEST_UPDATE_PARTS)[number];
export type UpdateRequestBody = t.TypeOf<typeof UpdateRequestBody>;

/** `POST /v1.1/requests/:id/contracts` (ADR 3300): one more published template for a draft. */
export const AddRequestContractBody = strict({ contract_id: PositiveInt }, {}, 'AddRequestContractBody');
export type AddRequestContractBody = t.TypeOf<typeof AddRequestContractBody>;

/** `PUT /v1.1/requests/:id/contracts` (ADR 3310): a draft's contracts in a new order, each once. */
export const ReorderRequestContractsBody = strict(
  { contract_ids: nonEmptyArray(PositiveInt, LIMITS.contracts, 'ContractIds') },
  {},
  'ReorderRequestContractsBody',
);
export type ReorderRequestContractsBody = t.TypeOf<typeof ReorderRequestContractsBody>;

/**
 * `POST /v1.1/requests/:id/copy` (ADR 3330): a new draft made of a Request; `test_mode`,
 * absent the source's, makes a live copy of a test-mode Request or the other way round.
 */
export const CopyRequestBody = strict({}, { test_mode: t.boolean }, 'CopyRequestBody');
export type CopyRequestBody = t.TypeOf<typeof CopyRequestBody>;
