import type Koa from 'koa';
import { html, type Html } from '../html.js';

/**
 * A list's date filter (the Requests list's "Created", the Bulk sends list's "Started"), as
 * the page's own query names it: `created_from` (on or after that day) and `created_before`
 * (before that day, not including it), each a UTC day `YYYY-MM-DD`, or '' for no such bound.
 */
export interface CreatedDates {
  readonly from: string;
  readonly to: string;
}

export const NO_DATES: CreatedDates = { from: '', to: '' };

/**
 * The dates as asked for: the bounds the list applies (`dates`), what each field shows
 * (`typed`), and why a bound is not applied (`errors`, by field). A bound in error is left
 * out of the list's query; the rest of the filter still applies.
 */
export interface CreatedInput {
  readonly dates: CreatedDates;
  readonly typed: CreatedDates;
  readonly errors: { readonly from?: string; readonly to?: string };
}

/** How a page words its dates: the two fields' labels, and the verb of its status line. */
export interface DateWords {
  readonly from: string;
  readonly to: string;
  readonly verb: string;
}

/** The Requests list's words, the default. */
export const CREATED: DateWords = { from: 'Created on or after', to: 'Created before', verb: 'created' };
/** The Bulk sends list's words: a bulk send starts. */
export const STARTED: DateWords = { from: 'Started on or after', to: 'Started before', verb: 'started' };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Whether `s` is a real calendar day written `YYYY-MM-DD` (no 2026-02-30). */
export const isDay = (s: string): boolean => {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(s)) return false;
  const time = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === s;
};

/** A day as the page says it: `2026-11-01` is "1 Nov 2026". */
export const dayText = (day: string): string => {
  const [y, m, d] = day.split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1] ?? m} ${y}`;
};

const notADay = (label: string, value: string): string =>
  `${label}: “${value}” is not a date. Enter one as YYYY-MM-DD, for example 2026-11-01.`;

/** The date filter of the page's query (a repeated parameter is taken as not given). */
export const createdInputOf = (ctx: Koa.Context, words: DateWords = CREATED): CreatedInput => {
  const one = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
  const typed = { from: one(ctx.query.created_from), to: one(ctx.query.created_before) };
  const fromOk = typed.from === '' || isDay(typed.from);
  const toOk = typed.to === '' || isDay(typed.to);
  // Both are `YYYY-MM-DD`, so their order as strings is their order as days.
  const reversed = fromOk && toOk && typed.from !== '' && typed.to !== '' && typed.to <= typed.from;
  const errors = {
    ...(fromOk ? {} : { from: notADay(words.from, typed.from) }),
    ...(toOk
      ? reversed
        ? { to: `${words.to} must be a later day than ${words.from} (${dayText(typed.from)}).` }
        : {}
      : { to: notADay(words.to, typed.to) }),
  };
  return {
    typed,
    errors,
    dates: { from: errors.from ? '' : typed.from, to: errors.to ? '' : typed.to },
  };
};

/** The dates as the page's links keep them. */
export const createdParams = (d: CreatedDates): Record<string, string> => ({
  ...(d.from ? { created_from: d.from } : {}),
  ...(d.to ? { created_before: d.to } : {}),
});

/** The dates as the API takes them: the instant each UTC day starts. */
export const createdInstants = (d: CreatedDates): Record<string, string> => ({
  ...(d.from ? { created_from: `${d.from}T00:00:00Z` } : {}),
  ...(d.to ? { created_before: `${d.to}T00:00:00Z` } : {}),
});

/** What the dates filter lists, after "Requests" ("bulk sends"): '' when there is no date filter. */
export const createdPhrase = (d: CreatedDates, words: DateWords = CREATED): string =>
  d.from && d.to
    ? `${words.verb} from ${dayText(d.from)} to before ${dayText(d.to)}`
    : d.from
      ? `${words.verb} on or after ${dayText(d.from)}`
      : d.to
        ? `${words.verb} before ${dayText(d.to)}`
        : '';

const dateField = (id: string, label: string, hint: string, value: string, error: string | undefined): Html =>
  html`<div class="field date">
    <label for="${id}">${label}</label>
    <p class="hint" id="${id}-hint">${hint}</p>
    ${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
    <input
      type="date"
      id="${id}"
      name="${id}"
      value="${value}"
      aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"
      ${error ? html` aria-invalid="true"` : ''}
    />
  </div>`;

/** The filter form's two date fields, each with its hint and its error. */
export const createdFields = (input: CreatedInput, words: DateWords = CREATED): Html =>
  html`${dateField(
    'created_from',
    words.from,
    'Including this day. Dates are in UTC.',
    input.typed.from,
    input.errors.from,
  )}${dateField(
    'created_before',
    words.to,
    'Not including this day. Dates are in UTC.',
    input.typed.to,
    input.errors.to,
  )}`;
