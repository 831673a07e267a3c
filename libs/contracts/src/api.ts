import * as t from 'io-ts';
import {
  boundedArray,
  boundedString,
  Email,
  IsoDateTime,
  nonEmptyArray,
  NonEmptyString,
  nullable,
  PositiveInt,
  refine,
  SafeHttpUrl,
  strict,
  UsMobileNumber,
} from './primitives.js';
import { LocaleTag } from './i18n/locale.js';
import {
  CancelReason,
  EmailSubject,
  MESSAGE_MAX,
  RequestTitle,
  SignerMessage,
  SUBJECT_MAX,
  TITLE_MAX,
} from './request-texts.js';
import { Page } from './paging.js';
import { ReminderIntervalDays } from './reminders.js';

/** Limits on one create body; documented in the README. */
export const LIMITS = {
  contracts: 20,
  signers: 100,
  fields: 500,
  renderDataKeys: 500,
  renderDataValue: 10_000,
  defaultValue: 10_000,
  cc: 20,
  message: MESSAGE_MAX,
  title: TITLE_MAX,
  subject: SUBJECT_MAX,
} as const;

export const SignerContact = strict({}, { email: Email, mobile_number: UsMobileNumber }, 'SignerContact');

export const SendTo = strict({}, { email: t.boolean, mobile_number: t.boolean }, 'SendTo');

/**
 * A signer's place in the signing order: signers with the lowest `order` sign first,
 * equal numbers in parallel (ADR 2000).
 */
export const SigningOrder = refine(
  t.number,
  (n): n is number => Number.isSafeInteger(n) && n >= 1 && n <= LIMITS.signers,
  `must be an integer from 1 to ${LIMITS.signers}`,
  'SigningOrder',
  { type: 'integer', minimum: 1, maximum: LIMITS.signers },
);

export const SignerAuthenticationMethod = t.keyof(
  { access_code: null, email_otp: null, sms_otp: null },
  'SignerAuthenticationMethod',
);
export type SignerAuthenticationMethod = t.TypeOf<typeof SignerAuthenticationMethod>;

/**
 * How a signer proves who they are before the contract is shown (ADR 2001): an access
 * code the sender gives out of band (`access_code`, 4 to 32 characters, kept hashed and
 * never answered), or a one-time code e-mailed (`email_otp`) or texted (`sms_otp`).
 */
export const SignerAuthentication = strict(
  { method: SignerAuthenticationMethod },
  { access_code: boundedString(4, 32) },
  'SignerAuthentication',
);
export type SignerAuthentication = t.TypeOf<typeof SignerAuthentication>;

/** An element of `signers` in the create body. */
export const SignerEntry = strict(
  { signer_id: NonEmptyString },
  {
    signer: SignerContact,
    send_to: SendTo,
    order: SigningOrder,
    authentication: SignerAuthentication,
    locale: LocaleTag,
  },
  'SignerEntry',
);
export type SignerEntry = t.TypeOf<typeof SignerEntry>;

/** An element of `fields` in the create body. */
export const FieldEntry = strict(
  { name: NonEmptyString },
  {
    default_value: t.union([boundedString(0, LIMITS.defaultValue), t.boolean]),
    assigned_to: NonEmptyString,
  },
  'FieldEntry',
);
export type FieldEntry = t.TypeOf<typeof FieldEntry>;

export const RenderData = t.record(t.string, boundedString(0, LIMITS.renderDataValue), 'RenderData');

/** `POST /v1.1/sites/:id/requests` body. */
export const CreateRequestBody = strict(
  {
    contracts: nonEmptyArray(PositiveInt, LIMITS.contracts, 'Contracts'),
    signers: nonEmptyArray(SignerEntry, LIMITS.signers, 'Signers'),
  },
  {
    fields: boundedArray(FieldEntry, LIMITS.fields, 'Fields'),
    render_data: RenderData,
    redirect_url: SafeHttpUrl,
    expires_at: IsoDateTime,
    /** Remind the signers automatically every this many days while sent (ADR 3130); null or absent: never. */
    reminder_interval_days: ReminderIntervalDays,
    /** A test Request: nothing is sent (messages are kept, `GET /v1.1/requests/:id/messages`) and its PDF is marked (issue #22). */
    test_mode: t.boolean,
    /** Addresses sent a copy of the executed document once everyone has signed (ADR 3230). */
    cc: boundedArray(Email, LIMITS.cc, 'CarbonCopies'),
    /** What the signers read in their e-mails and on their page (ADR 3380). */
    message: SignerMessage,
    /** The sender's own name for the Request, listed and searched (ADR 3390). */
    title: RequestTitle,
    /** The subject of the signers' invitation e-mails, in place of the usual one (ADR 3400). */
    subject: EmailSubject,
    /** Signers may ask someone else to sign in their place from their page (ADR 3560); default false. */
    allow_reassign: t.boolean,
  },
  'CreateRequestBody',
);
export type CreateRequestBody = t.TypeOf<typeof CreateRequestBody>;

export const RequestState = t.keyof(
  { draft: null, sent: null, completed: null, cancelled: null, expired: null, declined: null },
  'RequestState',
);
export type RequestState = t.TypeOf<typeof RequestState>;

export const SignerState = t.keyof({ pending: null, signed: null, declined: null }, 'SignerState');
export type SignerState = t.TypeOf<typeof SignerState>;

/**
 * Where a signer's message on one channel stands: `not_requested` (send_to off),
 * `no_address` (chosen, but the signer has no address for it), `pending` (chosen, no
 * outcome reported yet), `delivered` or `failed` (as the notifier last reported), or
 * `quota_exceeded` (not sent: the Site's or the recipient's daily message quota was used
 * up; a later reminder may go out once there is room again).
 */
export const NotificationStatus = t.keyof(
  {
    not_requested: null,
    no_address: null,
    pending: null,
    delivered: null,
    failed: null,
    quota_exceeded: null,
  },
  'NotificationStatus',
);
export type NotificationStatus = t.TypeOf<typeof NotificationStatus>;

/** One signer of a Request as the API shows it. */
export const SignerView = t.type({
  signer_id: t.string,
  signer_ref: t.string,
  email: nullable(t.string),
  mobile_number: nullable(t.string),
  send_to: t.type({ email: t.boolean, mobile_number: t.boolean }),
  state: SignerState,
  request_url: t.string,
  signed_at: nullable(t.string),
  declined_at: nullable(t.string),
  notifications: t.type({ email: NotificationStatus, sms: NotificationStatus }),
  /** The signer's place in the signing order; null when the Request has none. */
  order: nullable(t.number),
  /** True while the Request is sent and this signer may sign now (it is their turn and they have not acted). */
  turn: t.boolean,
  /** How the signer proves who they are before signing (never the access code itself); null: no check. */
  authentication: nullable(t.type({ method: SignerAuthenticationMethod })),
  /** The language the client chose for this signer (canonical BCP 47), null: none (ADR 2320). */
  locale: nullable(t.string),
  /** When the signer first opened their live Execution URL; null until then. */
  viewed_at: nullable(t.string),
});
export type SignerView = t.TypeOf<typeof SignerView>;

export const FieldView = t.type({
  name: t.string,
  default_value: nullable(t.union([t.string, t.boolean])),
  assigned_to: nullable(t.string),
});
export type FieldView = t.TypeOf<typeof FieldView>;

/** A Request as the API shows it: the create response, `GET /v1.1/requests/:id`, and list items. */
export const RequestView = t.type({
  id: t.string,
  site_id: t.number,
  state: RequestState,
  contracts: t.array(t.number),
  signers: t.array(SignerView),
  fields: t.array(FieldView),
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
  /** Days between automatic reminders; null: none (ADR 3130). */
  reminder_interval_days: nullable(t.number),
  /** When the next automatic reminder goes out; null when none is scheduled. */
  next_reminder_at: nullable(t.string),
  /** The signing order whose turn it is while the Request is sent; null without an order or when not sent. */
  current_order: nullable(t.number),
  /** A test Request: no message leaves the platform and the executed PDF is marked not legally binding. */
  test_mode: t.boolean,
  /** Who is sent a copy of the executed document once everyone has signed (ADR 3230). */
  cc: t.array(t.string),
  /** The message to the signers; null: none (ADR 3380). */
  message: nullable(t.string),
  /** The sender's own name for the Request; null: none (ADR 3390). */
  title: nullable(t.string),
  /** The subject of the signers' invitation e-mails; null: the usual one (ADR 3400). */
  subject: nullable(t.string),
  /** The Request this one was copied from (`POST /v1.1/requests/:id/copy`); null: not a copy (ADR 3410). */
  copied_from: nullable(t.string),
  /** The bulk send that made it, one of its rows; null: made by a create or a copy (ADR 3510). */
  bulk_send_id: nullable(t.string),
  /** Whether its signers may ask someone else to sign in their place (ADR 3560). */
  allow_reassign: t.boolean,
});
export type RequestView = t.TypeOf<typeof RequestView>;

export const RequestList = Page(RequestView);
export type RequestList = t.TypeOf<typeof RequestList>;

/**
 * `POST /v1.1/requests/:id/cancel` (ADR 3500): no body, `{}`, or why (`reason`, kept in
 * the history) and whether the signers who were told of a sent Request are told of its
 * cancel (`notify_signers`, default false).
 */
export const CancelRequestBody = strict(
  {},
  { reason: CancelReason, notify_signers: t.boolean },
  'CancelRequestBody',
);
export type CancelRequestBody = t.TypeOf<typeof CancelRequestBody>;
