import { MAX_REMINDER_INTERVAL_DAYS } from '@esign/contracts';
import { html, type Html } from '../html.js';
import { numberField, textField } from '../layout.js';

/**
 * The values of a Request as its forms take them (New Request, and a Request's Expiry and
 * reminders, Render data and CC sections): each field, and what was typed read as the API
 * takes it, or the form's own refusal by field id (the field ids are the API's paths).
 */

/** `token=value` lines as `render_data`; a line that is not one is refused by its number. */
export const renderDataOf = (text: string, errors: Map<string, string>): Record<string, string> => {
  // A Map, then own properties: a token named `__proto__` is data like any other.
  const data = new Map<string, string>();
  const lineOf = new Map<string, number>();
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const at = line.indexOf('=');
    const token = at < 0 ? '' : line.slice(0, at).trim();
    if (token === '') return problems.push(`Line ${i + 1} is not token=value.`);
    const first = lineOf.get(token);
    if (first !== undefined) return problems.push(`Line ${i + 1} gives ${token} again (line ${first}).`);
    lineOf.set(token, i + 1);
    data.set(token, line.slice(at + 1).trim());
  });
  if (problems.length > 0) errors.set('render_data', problems.join(' '));
  return Object.fromEntries(data);
};

/** A date and time typed as UTC (`2030-01-31T12:00`), as the API takes it (`…:00Z`). */
export const expiryOf = (text: string, errors: Map<string, string>): string | undefined => {
  if (text === '') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d{1,3})?)?$/.exec(text);
  const iso = m ? `${m[1]}T${m[2]}${m[3] ?? ':00'}Z` : '';
  if (!m || Number.isNaN(Date.parse(iso))) {
    errors.set('expires_at', 'Enter a date and time such as 2030-01-31 12:00 (UTC).');
    return undefined;
  }
  return iso;
};

/** Whole days from 1 to 30 between automatic reminders; empty: none. */
export const reminderDaysOf = (text: string, errors: Map<string, string>): number | undefined => {
  if (text === '') return undefined;
  const days = /^\d{1,2}$/.test(text) ? Number(text) : 0;
  if (days < 1 || days > MAX_REMINDER_INTERVAL_DAYS) {
    errors.set(
      'reminder_interval_days',
      `Enter a whole number of days from 1 to ${MAX_REMINDER_INTERVAL_DAYS}, or leave it empty for no automatic reminders.`,
    );
    return undefined;
  }
  return days;
};

/**
 * `cc` typed as addresses separated by commas, semicolons, spaces or lines (ADR 3230);
 * what is not an address is the API's to refuse, by its place.
 */
export const ccOf = (text: string): string[] => text.split(/[\s,;]+/).filter((part) => part !== '');

/** `render_data` as `token=value` lines: on New Request, and a draft's Render data (ADR 3220). */
export const renderDataField = (value: string, error: string | undefined): Html =>
  html`<div class="field">
    <label for="render_data">Render data (optional)</label>
    <p class="hint" id="render_data-hint">
      Values for the <code>{{tokens}}</code> of HTML templates: one <code>token=value</code> per line, e.g.
      <code>client_name=Ann Lee</code>.
    </p>
    ${error ? html`<p class="error" id="render_data-error">${error}</p>` : ''}
    <textarea
      id="render_data"
      name="render_data"
      rows="4"
      spellcheck="false"
      aria-describedby="render_data-hint${error ? ' render_data-error' : ''}"
      ${error ? html` aria-invalid="true"` : ''}
    >
${value}</textarea>
  </div>`;

/**
 * **Expires at** (typed as UTC) and **Remind every … days**, as New Request and a Request's
 * Expiry and reminders show them; an empty field means none. Their ids are the API's paths.
 */
export const expiryAndReminderFields = (
  values: { readonly expiresAt: string; readonly reminderDays: string },
  errors: ReadonlyMap<string, string>,
): Html =>
  html`${textField({
    id: 'expires_at',
    name: 'expires_at',
    label: 'Expires at (optional, UTC)',
    type: 'datetime-local',
    hint: 'The date and time in UTC, not your local time; at most 365 days ahead. Leave it empty for no expiry.',
    value: values.expiresAt,
    error: errors.get('expires_at'),
  })}
  ${numberField({
    id: 'reminder_interval_days',
    name: 'reminder_interval_days',
    label: 'Remind every … days (optional)',
    min: 1,
    max: MAX_REMINDER_INTERVAL_DAYS,
    hint: 'Once sent, the signers who have not signed are reminded automatically every this many days (1 to 30), and once a day before it expires, up to the reminder limit; leave it empty for none.',
    value: values.reminderDays,
    error: errors.get('reminder_interval_days'),
  })}`;

/** **CC (optional)**: who is sent a copy of the executed document once everyone has signed (ADR 3230). */
export const ccField = (value: string, error: string | undefined): Html =>
  textField({
    id: 'cc',
    name: 'cc',
    label: 'CC (optional)',
    hint: 'E-mail addresses, separated by commas, that get a copy of the signed document once everyone has signed.',
    value,
    error,
  });
