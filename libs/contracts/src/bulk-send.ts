import * as t from 'io-ts';
import { FieldEntry, LIMITS, RenderData, SignerEntry } from './api.js';
import { CancelReason, EmailSubject, RequestTitle, SignerMessage } from './request-texts.js';
import { Page } from './paging.js';
import { ReminderIntervalDays } from './reminders.js';
import {
  boundedArray,
  IsoDateTime,
  nonEmptyArray,
  nullable,
  PositiveInt,
  SafeHttpUrl,
  strict,
} from './primitives.js';

/** At most this many rows in one bulk send (issue #22). */
export const MAX_BULK_ROWS = 1000;

/**
 * One row of a bulk send: one Request's signers, render_data, field values and title
 * (ADR 3390, each Request its own). Its `fields` are laid over the shared ones by name (a
 * row's entry wins).
 */
export const BulkSendRow = strict(
  { signers: nonEmptyArray(SignerEntry, LIMITS.signers, 'Signers') },
  {
    render_data: RenderData,
    fields: boundedArray(FieldEntry, LIMITS.fields, 'Fields'),
    title: RequestTitle,
  },
  'BulkSendRow',
);
export type BulkSendRow = t.TypeOf<typeof BulkSendRow>;

const shared = {
  fields: boundedArray(FieldEntry, LIMITS.fields, 'Fields'),
  redirect_url: SafeHttpUrl,
  expires_at: IsoDateTime,
  /** Each Request's automatic reminders (ADR 3130). */
  reminder_interval_days: ReminderIntervalDays,
  /** Send each Request once it is created. */
  send: t.boolean,
  /** Every Request of the bulk send is a test-mode Request (ADR 2200). */
  test_mode: t.boolean,
  /** Each Request's message to its signers (ADR 3380). */
  message: SignerMessage,
  /** The subject of each Request's invitation e-mails (ADR 3400). */
  subject: EmailSubject,
  /** Each Request's signers may ask someone else to sign in their place (ADR 3560). */
  allow_reassign: t.boolean,
};

/**
 * `POST /v1.1/sites/:id/bulk_sends` as the service reads it: the shared part strictly,
 * each row on its own later, so one invalid row does not refuse the others.
 */
export const CreateBulkSendBody = strict(
  {
    contracts: nonEmptyArray(PositiveInt, LIMITS.contracts, 'Contracts'),
    rows: nonEmptyArray(t.unknown, MAX_BULK_ROWS, 'BulkSendRows'),
  },
  shared,
  'CreateBulkSendBody',
);
export type CreateBulkSendBody = t.TypeOf<typeof CreateBulkSendBody>;

/** The same body as the OpenAPI document describes it: every row a `BulkSendRow`. */
export const CreateBulkSendBodyDocumented = strict(
  {
    contracts: nonEmptyArray(PositiveInt, LIMITS.contracts, 'Contracts'),
    rows: nonEmptyArray(BulkSendRow, MAX_BULK_ROWS, 'BulkSendRowList'),
  },
  shared,
  'CreateBulkSendBody',
);

export const BulkSendState = t.keyof({ running: null, completed: null }, 'BulkSendState');
export type BulkSendState = t.TypeOf<typeof BulkSendState>;

const RowError = t.type({ path: t.string, message: t.string });

/** A bulk send and how far it got: `GET /v1.1/bulk_sends/:id` (and the 202 of its create). */
const progress = {
  id: t.string,
  site_id: t.number,
  state: BulkSendState,
  send: t.boolean,
  test_mode: t.boolean,
  rows_total: t.number,
  /** Rows whose Request exists. */
  created: t.number,
  /** Rows whose Request was sent. */
  sent: t.number,
  /** Rows that failed: no Request, or (with `send`) one that could not be sent. */
  failed: t.number,
  /** Rows left unmade because the bulk send was cancelled (ADR 3450). */
  cancelled: t.number,
  /** When it was cancelled (ADR 3450); null when it was not. */
  cancelled_at: nullable(t.string),
};

export const BulkSendView = t.type({
  ...progress,
  /** Each failed row (0-based `row`) with the errors a single create would give, at `rows[i]…`. */
  failures: t.array(t.type({ row: t.number, request_id: nullable(t.string), errors: t.array(RowError) })),
  /** The Requests made, in row order. */
  requests: t.array(t.type({ row: t.number, request_id: t.string })),
  created_at: t.string,
  completed_at: nullable(t.string),
});
export type BulkSendView = t.TypeOf<typeof BulkSendView>;

/**
 * A bulk send in its Site's list, `GET /v1.1/sites/:id/bulk_sends` (ADR 3440): how far it
 * got, in counts, and the templates its Requests are made of (`id` and `name`, as they were
 * named when it was made, a deleted one too). Its failures and Requests: `GET /v1.1/bulk_sends/:id`.
 */
export const BulkSendSummary = t.type({
  ...progress,
  contracts: t.array(t.type({ id: t.number, name: t.string })),
  created_at: t.string,
  completed_at: nullable(t.string),
});
export type BulkSendSummary = t.TypeOf<typeof BulkSendSummary>;

export const BulkSendList = Page(BulkSendSummary);
export type BulkSendList = t.TypeOf<typeof BulkSendList>;

/**
 * `POST /v1.1/bulk_sends/:id/cancel_requests` (ADR 3480): no body, `{}`, or the `reason` each
 * Request's `request.cancelled` keeps and whether each sent Request's signers are told
 * (`notify_signers`, default false), as `POST /v1.1/requests/:id/cancel` takes them (ADR 3500).
 */
export const CancelBulkSendRequestsBody = strict(
  {},
  { reason: CancelReason, notify_signers: t.boolean },
  'CancelBulkSendRequestsBody',
);
export type CancelBulkSendRequestsBody = t.TypeOf<typeof CancelBulkSendRequestsBody>;

/**
 * `POST /v1.1/bulk_sends/:id/cancel_requests` (ADR 3480): of the Requests the bulk send made,
 * `cancelled` were cancelled by this call; `already_closed` were completed, declined, expired or
 * cancelled before it (or closed while it ran), and are left as they are.
 */
export const BulkSendRequestsCancelled = t.type({
  bulk_send_id: t.string,
  cancelled: t.number,
  already_closed: t.number,
});
export type BulkSendRequestsCancelled = t.TypeOf<typeof BulkSendRequestsCancelled>;
