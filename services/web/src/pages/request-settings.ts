import { problem, type RequestView, type UpdateRequestBody } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, time } from '../layout.js';
import { keyShownAgain } from './common.js';
import { expiryAndReminderFields, expiryOf, reminderDaysOf } from './request-values.js';

/**
 * **Expiry and reminders** on a draft or sent Request's page (ADR 3150): its `expires_at`
 * (typed as UTC, as on New Request) and its automatic reminders, changed with
 * `PATCH /v1.1/requests/:id`. The form carries its own Idempotency-Key, as Correct contact
 * does, and what the page showed (`was_*`): only what differs from it is sent, an emptied
 * field as null, and a form sent unchanged asks the API nothing.
 */

/** What the person typed, kept as typed so a refused form shows it again. */
export interface SettingsForm {
  readonly idempotencyKey: string;
  readonly expiresAt: string;
  readonly reminderDays: string;
  /** The Request's `expires_at` as the API gave it when the page was shown; empty: none. */
  readonly wasExpiresAt: string;
  /** Its `reminder_interval_days` then; empty: none. */
  readonly wasReminderDays: string;
}

export const settingsFormOf = (fields: FormFields): SettingsForm => ({
  idempotencyKey: fields.idempotency_key ?? '',
  expiresAt: (fields.expires_at ?? '').trim(),
  reminderDays: (fields.reminder_interval_days ?? '').trim(),
  wasExpiresAt: fields.was_expires_at ?? '',
  wasReminderDays: fields.was_reminder_interval_days ?? '',
});

/** An instant as the Expires at field shows it (UTC, as it is typed): to the minute unless it has seconds. */
export const typedExpiryOf = (iso: string | null): string => {
  if (iso === null || Number.isNaN(Date.parse(iso))) return '';
  const at = new Date(iso).toISOString();
  if (at.endsWith(':00.000Z')) return at.slice(0, 16);
  return at.slice(0, at.endsWith('.000Z') ? 19 : 23);
};

/** Whether the expiry typed (null: none) is the one the page showed, however written. */
const sameExpiry = (typed: string | null, was: string): boolean =>
  typed === null ? was === '' : was !== '' && Date.parse(typed) === Date.parse(was);

/**
 * The PATCH body: what differs from what the page showed, an emptied field as null; or
 * the form's own refusals by field id (nothing is sent while there is one). An empty body
 * means nothing was changed.
 */
export const settingsBodyOf = (
  form: SettingsForm,
): { readonly body: UpdateRequestBody; readonly errors: ReadonlyMap<string, string> } => {
  const errors = new Map<string, string>();
  const expiresAt = form.expiresAt === '' ? null : expiryOf(form.expiresAt, errors);
  const days = form.reminderDays === '' ? null : reminderDaysOf(form.reminderDays, errors);
  const body = {
    ...(expiresAt === undefined || sameExpiry(expiresAt, form.wasExpiresAt) ? {} : { expires_at: expiresAt }),
    ...(days === undefined || String(days ?? '') === form.wasReminderDays
      ? {}
      : { reminder_interval_days: days }),
  };
  return { body, errors };
};

/** The page's own refusal of what was typed, by field id: the API is not asked. */
export const typedProblem = (errors: ReadonlyMap<string, string>): ApiProblem =>
  problem({
    status: 422,
    code: 'invalid_body',
    title: 'Invalid request body',
    detail: 'Correct the fields below.',
    errors: [...errors].map(([path, message]) => ({ path, message })),
  });

/** The fields of the form, by the path of the API's field errors. */
const IDS = { expires_at: 'expires_at', reminder_interval_days: 'reminder_interval_days' };

/** The refusal first on the page: errors beside a field link to it, the others say their path. */
export const settingsSummary = (refused: ApiProblem): Html => {
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} The expiry and reminders were not changed.`;
  return problemSummary({ ...refused, detail }, IDS);
};

export const SETTINGS_DONE: Record<string, string> = {
  settings: 'The Request’s expiry and automatic reminders were saved.',
  'settings-same': 'The expiry and automatic reminders were already as given: nothing was changed.',
};

/** When the next automatic reminder goes out, or why there is none yet. */
const nextReminder = (r: RequestView): Html | '' => {
  if (r.next_reminder_at) return html`<p>Next automatic reminder: ${time(r.next_reminder_at)}</p>`;
  if (r.state === 'draft' && r.reminder_interval_days !== null)
    return html`<p class="hint">The automatic reminders start when the Request is sent.</p>`;
  return '';
};

/**
 * The section, for a draft or sent Request only: prefilled with its expiry and interval,
 * or with what was typed (`typed`) when it was refused, each refusal beside its field.
 */
export const settingsSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: SettingsForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, typed, problem: refused } = input;
  if (r.state !== 'draft' && r.state !== 'sent') return '';
  const shown = {
    expiresAt: typedExpiryOf(r.expires_at),
    reminderDays: r.reminder_interval_days === null ? '' : String(r.reminder_interval_days),
  };
  const errors = typed === undefined ? new Map<string, string>() : fieldErrors(refused);
  return html`<section class="panel" aria-labelledby="settings-title">
    <h2 id="settings-title">Expiry and reminders</h2>
    <p class="hint">
      Moving the expiry later keeps the signers’ current links working, up to their own lifetime (a link older
      than that needs <strong>New link</strong>). On a sent Request the next automatic reminder is counted
      again from the last message the signers were sent.
    </p>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="idempotency_key" value="${keyShownAgain(typed?.idempotencyKey, refused)}" />
      <input type="hidden" name="was_expires_at" value="${r.expires_at ?? ''}" />
      <input type="hidden" name="was_reminder_interval_days" value="${shown.reminderDays}" />
      ${expiryAndReminderFields(typed ?? shown, errors)} ${nextReminder(r)}
      <button type="submit">Save expiry and reminders</button>
    </form>
  </section>`;
};
