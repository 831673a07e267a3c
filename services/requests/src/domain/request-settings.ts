import * as E from 'fp-ts/lib/Either.js';
import type { RequestUpdatePart } from '@esign/contracts';
import { isPastExpiry } from './expiry.js';
import type { RequestField, SignatureRequest, Transition, TransitionError } from './request-model.js';
import { lastNotifiedAt, nextReminderAt } from './reminder-schedule.js';

/** What a sender changes of an open Request (ADR 3150); absent parts stay as they are. */
export interface RequestSettingsChange {
  /** When the Request expires; null: never. Checked against the clock by the caller. */
  readonly expiresAt?: string | null;
  /** Days between automatic reminders (ADR 3130); null: none. */
  readonly reminderIntervalDays?: number | null;
  /**
   * A draft's render_data, replaced whole (ADR 3220); checked against its contracts'
   * tokens by the caller, as at create.
   */
  readonly renderData?: Readonly<Record<string, string>>;
  /**
   * A draft's fields as the create's rules make them of the entries given (ADR 3220):
   * every field of its contracts, in their order. Made by the caller (`checkFields`).
   */
  readonly fields?: readonly RequestField[];
  /** An open Request's carbon copies, replaced whole (ADR 3230); checked by the caller. */
  readonly cc?: readonly string[];
  /** A draft's message to its signers (ADR 3380); null: none. */
  readonly message?: string | null;
  /** An open Request's title (ADR 3390); null: none. */
  readonly title?: string | null;
  /** A draft's e-mail subject (ADR 3400); null: the usual one. */
  readonly subject?: string | null;
  /** Whether an open Request's signers may ask someone else to sign in their place (ADR 3560). */
  readonly allowReassign?: boolean;
}

/** A text replaced by `next`, unless it is absent or the same: then `current`, unchanged. */
const textOf = (next: string | null | undefined, current: string | null | undefined) =>
  next === undefined || next === (current ?? null) ? current : next;

const sameInstant = (a: string | null, b: string | null) =>
  a === null || b === null ? a === b : Date.parse(a) === Date.parse(b);

const sameData = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
};

const sameFields = (a: readonly RequestField[], b: readonly RequestField[]) =>
  a.length === b.length &&
  a.every(
    (f, i) =>
      f.name === b[i]!.name && f.defaultValue === b[i]!.defaultValue && f.assignedTo === b[i]!.assignedTo,
  );

/**
 * draft or sent → the same state: the sender moves the Request's expiry (later, sooner, or
 * away) or changes its automatic reminders (ADR 3150), or replaces a draft's render_data
 * (ADR 3220: once sent, the signers have been shown the document, so it is fixed). The
 * signers' links live until the new expiry, within their own lifetime (ADR 1321); on a
 * sent Request the next automatic reminder is scheduled again from the last notification,
 * so a shorter interval may make one due at once and null stops them. A draft's fields are
 * replaced the same way, and for the same reason only a draft's; so are its message to the
 * signers (ADR 3380) and its e-mail subject (ADR 3400): once sent, they have read them.
 * Whether its signers may ask someone else to sign (ADR 3560) changes on a draft or a sent
 * Request: it is offered on their page from then on, and one who already asked stays
 * replaced. The event names what changed; a change that changes nothing answers the
 * Request as it is, with no event.
 */
export const changeSettings = (
  request: SignatureRequest,
  change: RequestSettingsChange,
  now: string,
  maxReminders: number,
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'draft' && request.state !== 'sent')
    return E.left({ _tag: 'StateConflict', action: 'update', state: request.state });
  if (change.renderData !== undefined && request.state !== 'draft')
    return E.left({ _tag: 'StateConflict', action: 'update_render_data', state: request.state });
  if (change.fields !== undefined && request.state !== 'draft')
    return E.left({ _tag: 'StateConflict', action: 'update_fields', state: request.state });
  if (change.message !== undefined && request.state !== 'draft')
    return E.left({ _tag: 'StateConflict', action: 'update_message', state: request.state });
  if (change.subject !== undefined && request.state !== 'draft')
    return E.left({ _tag: 'StateConflict', action: 'update_subject', state: request.state });
  if (isPastExpiry(request, now)) return E.left({ _tag: 'RequestExpired', expiresAt: request.expiresAt! });
  const expiresAt = change.expiresAt === undefined ? request.expiresAt : change.expiresAt;
  const reminderIntervalDays =
    change.reminderIntervalDays === undefined ? request.reminderIntervalDays : change.reminderIntervalDays;
  const renderData =
    change.renderData === undefined || sameData(change.renderData, request.renderData)
      ? request.renderData
      : { ...change.renderData };
  const fields =
    change.fields === undefined || sameFields(change.fields, request.fields) ? request.fields : change.fields;
  const cc =
    change.cc === undefined ||
    (change.cc.length === (request.cc ?? []).length && change.cc.every((e, i) => e === request.cc?.[i]))
      ? request.cc
      : [...change.cc];
  const message = textOf(change.message, request.message);
  const title = textOf(change.title, request.title);
  const subject = textOf(change.subject, request.subject);
  const allowReassign = change.allowReassign ?? request.allowReassign ?? false;
  const changed: RequestUpdatePart[] = [
    ...(sameInstant(expiresAt, request.expiresAt) ? [] : (['expires_at'] as const)),
    ...(reminderIntervalDays === request.reminderIntervalDays ? [] : (['reminder_interval_days'] as const)),
    ...(renderData === request.renderData ? [] : (['render_data'] as const)),
    ...(fields === request.fields ? [] : (['fields'] as const)),
    ...(cc === request.cc ? [] : (['cc'] as const)),
    ...(message === request.message ? [] : (['message'] as const)),
    ...(title === request.title ? [] : (['title'] as const)),
    ...(subject === request.subject ? [] : (['subject'] as const)),
    ...(allowReassign === (request.allowReassign ?? false) ? [] : (['allow_reassign'] as const)),
  ];
  if (changed.length === 0) return E.right({ request, events: [] });
  const updated: SignatureRequest = {
    ...request,
    expiresAt,
    reminderIntervalDays,
    renderData,
    fields,
    ...(cc !== undefined && { cc }),
    ...(message !== undefined && { message }),
    ...(title !== undefined && { title }),
    ...(subject !== undefined && { subject }),
    allowReassign,
    updatedAt: now,
  };
  return E.right({
    request: { ...updated, nextReminderAt: nextReminderAt(updated, maxReminders, lastNotifiedAt(updated)) },
    events: [{ type: 'request.updated', changed }],
  });
};
