import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { Page, type RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor } from '../context.js';
import { html, type Html } from '../html.js';
import { time } from '../layout.js';
import { dataTable } from '../table.js';
import { segment } from './common.js';

/**
 * **History** on a Request's page (ADR 3170): what happened to it, from
 * `GET /v1.1/requests/:id/events`, each entry a webhook event in plain English with the
 * signer it names. The latest HISTORY_SHOWN are shown, oldest first; a failure to read
 * them is said in the section, and the rest of the page still shows.
 */

export const HISTORY_SHOWN = 100;

/**
 * An entry as the web application reads it: the contracts' `RequestEventList` with `type`
 * as any string, so an event type newer than this page still shows (as its type) instead
 * of the whole history failing to decode.
 */
export const HistoryEntry = t.type({
  id: t.string,
  type: t.string,
  created_at: t.string,
  data: t.UnknownRecord,
});
export type HistoryEntry = t.TypeOf<typeof HistoryEntry>;
const HistoryPage = Page(HistoryEntry);
type HistoryPage = t.TypeOf<typeof HistoryPage>;
type Data = Readonly<Record<string, unknown>>;
/** Who an entry's data (or one of its `signers`) names, in words. */
export type SignerName = (data: Data) => string;

const text = (data: Data, key: string): string | undefined => {
  const value = data[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** The signer an event names: its `signer_id`, else the Request's signer of its `signer_ref`. */
const signerNamed =
  (r: Pick<RequestView, 'signers'>): SignerName =>
  (data) => {
    const ref = text(data, 'signer_ref');
    return (
      text(data, 'signer_id') ??
      r.signers.find((s) => ref !== undefined && s.signer_ref === ref)?.signer_id ??
      ref ??
      'a signer'
    );
  };

/** Who an entry of a feed names, with no Request at hand: its `signer_id`, else its `signer_ref`. */
export const signerOfEntry: SignerName = signerNamed({ signers: [] });

/** The signers an event lists (`signers`): one by name, more by how many. */
const signersListed = (name: SignerName, data: Data): string => {
  const listed = Array.isArray(data.signers) ? (data.signers as unknown[]) : [];
  const signers = listed.filter((s): s is Data => typeof s === 'object' && s !== null);
  if (signers.length === 1) return name(signers[0]!);
  return `${signers.length} signers`;
};

/** What `request.updated` left: the expiry and the automatic reminders as they are now. */
const settingsNow = (data: Data): Html => {
  const expires = text(data, 'expires_at');
  const days = data.reminder_interval_days;
  const reminders =
    typeof days === 'number'
      ? `automatic reminders every ${days} ${days === 1 ? 'day' : 'days'}`
      : 'no automatic reminders';
  return html`Expiry or reminders changed: ${expires ? html`expires ${time(expires)}` : 'no expiry'};
  ${reminders}`;
};

/** What a draft's or an open Request's `request.updated` can name besides its expiry and reminders. */
const PARTS: readonly (readonly [string, string])[] = [
  ['render_data', 'render data'],
  ['fields', 'fields'],
  ['cc', 'CC addresses'],
  ['message', 'message to the signers'],
  ['subject', 'e-mail subject'],
  ['title', 'title'],
  ['allow_reassign', 'whether signers may reassign'],
];

/**
 * What `request.updated` changed: a draft's render data or fields (ADR 3220), the CC
 * addresses (ADR 3230), a draft's message to its signers (ADR 3380) and e-mail subject (ADR
 * 3400), the title (ADR 3390), whether signers may reassign (ADR 3560), and the expiry or
 * reminders as they are now. `changed` names them; older entries changed the expiry or reminders.
 */
const updated = (data: Data): Html | string => {
  const changed = Array.isArray(data.changed) ? (data.changed as unknown[]) : [];
  const named = PARTS.filter(([part]) => changed.includes(part)).map(([, words]) => words);
  if (named.length === 0) return settingsNow(data);
  const said = `${named.join(' and ')} changed`;
  const sentence = `${said[0]!.toUpperCase()}${said.slice(1)}`;
  const settings = changed.includes('expires_at') || changed.includes('reminder_interval_days');
  return settings ? html`${sentence}. ${settingsNow(data)}` : sentence;
};

/** What `request.delivery_failed` reports: which message, to whom, and why (ADR 3180). */
const deliveryFailed = (signer: string, data: Data): string => {
  const message = data.channel === 'sms' ? 'SMS' : 'E-mail';
  const to = text(data, 'to');
  const error = text(data, 'error');
  const who = `${signer}${to === undefined || to === signer ? '' : ` (${to})`}`;
  return data.status === 'quota_exceeded'
    ? `${message} to ${who} not sent: a daily quota is used up`
    : `${message} to ${who} could not be delivered${error === undefined ? '' : ` — ${error}`}`;
};

/** The strings of an entry's list `key`. */
const names = (data: Data, key: string): string[] =>
  Array.isArray(data[key]) ? (data[key] as unknown[]).filter((f): f is string => typeof f === 'string') : [];

/** A draft's signer removed (ADR 3280), and the fields that were theirs, now with no signer. */
const signerRemoved = (signer: string, data: Data): string => {
  const fields = names(data, 'unassigned_fields');
  return `Signer removed: ${signer}${
    fields.length === 0
      ? ''
      : ` — ${fields.length === 1 ? 'field' : 'fields'} left unassigned: ${fields.join(', ')}`
  }`;
};

/** A draft's contract added or removed (ADR 3300), and the fields (and render data) that came or went. */
const contractChanged = (added: boolean, data: Data): string => {
  const name = text(data, 'name') ?? `template ${String(data.contract_id)}`;
  const fields = names(data, added ? 'added_fields' : 'removed_fields');
  const keys = added ? [] : names(data, 'removed_render_data');
  const went = [
    fields.length === 0
      ? ''
      : `${fields.length === 1 ? 'field' : 'fields'} ${added ? 'added' : 'removed'}: ${fields.join(', ')}`,
    keys.length === 0 ? '' : `render data removed: ${keys.join(', ')}`,
  ].filter((s) => s !== '');
  return `Contract ${added ? 'added' : 'removed'}: ${name}${went.length === 0 ? '' : ` — ${went.join('; ')}`}`;
};

/** A draft's contracts put in a new order (ADR 3310): all of them, as they now stand. */
const contractsReordered = (data: Data): string => {
  const listed = Array.isArray(data.contracts) ? (data.contracts as unknown[]) : [];
  const named = listed
    .filter((c): c is Data => typeof c === 'object' && c !== null)
    .map((c) => text(c, 'name') ?? `template ${String(c.id)}`);
  return `Contracts put in a new order${named.length === 0 ? '' : `: ${named.join(', ')}`}`;
};

/** What a draft's signer's settings (ADR 3290) are called in `request.signer_updated`'s `changed`. */
const SETTINGS: readonly (readonly [string, string])[] = [
  ['order', 'order'],
  ['authentication', 'check before signing'],
  ['locale', 'language'],
];

/**
 * A signer corrected (ADRs 3140, 3200), replaced (ADR 3550) or their signing settings changed
 * (ADR 3290), as `changed` names them; entries from before it, and contact corrections, say the correction.
 */
const signerUpdated = (signer: string, data: Data): string => {
  const by = text(data, 'corrected_by');
  const previous = typeof data.previous === 'object' && data.previous !== null ? (data.previous as Data) : {};
  // Someone else signs in a signer's place (ADR 3550): `previous` names who they replaced, `by`
  // who did it (the signer themselves when they asked, ADR 3560), and whether they were told.
  if (names(data, 'changed').includes('signer_id')) {
    const replaced = text(previous, 'signer_id') ?? 'a signer';
    const who = by === undefined ? '' : by === replaced ? ` at ${replaced}’s request` : ` by ${by}`;
    return `Signer replaced: ${replaced} → ${signer}${who}${data.previous_notified === true ? `; ${replaced} was told` : ''}`;
  }
  const contact = `Contact corrected for ${signer}${by === undefined ? '' : ` by ${by}`}${
    data.link_replaced === true ? ' (new link)' : ''
  }`;
  const changed = Array.isArray(data.changed) ? (data.changed as unknown[]) : [];
  const settings = SETTINGS.filter(([part]) => changed.includes(part)).map(([, words]) => words);
  if (settings.length === 0) return contact;
  const reached = ['email', 'mobile_number', 'send_to'].some((part) => changed.includes(part));
  return reached
    ? `${contact}; signing settings changed: ${settings.join(', ')}`
    : `Signing settings changed for ${signer}${by === undefined ? '' : ` by ${by}`}: ${settings.join(', ')}`;
};

/** A Request cancelled: the reason given, if any, and whether its signers were told. */
const cancelled = (data: Data): string => {
  const reason = text(data, 'reason');
  return `Cancelled${reason === undefined ? '' : `: ${reason}`}${
    data.signers_notified === true ? '; the signers were told' : ''
  }`;
};

/** What happened, in plain English, with who it was about; an unknown type as itself. */
export const whatHappened = (name: SignerName, entry: HistoryEntry): Html | string => {
  const { data } = entry;
  switch (entry.type) {
    case 'request.sent':
      return `Sent to ${signersListed(name, data)}`;
    case 'request.viewed':
      return `Viewed by ${name(data)}`;
    case 'request.signed':
      return `Signed by ${name(data)}`;
    case 'request.declined': {
      const reason = text(data, 'reason');
      return `Declined by ${name(data)}${reason === undefined ? '' : ` — reason: ${reason}`}`;
    }
    case 'request.reminded':
      // A new link to a corrected address or number is an invitation to it (ADR 3420).
      return data.readdressed === true
        ? `Invited ${signersListed(name, data)} at their corrected address or number`
        : `Reminded ${signersListed(name, data)}${data.automatic === true ? ' (automatic)' : ''}` +
            // The expiry warning, or any reminder in the last day before the expiry (ADR 3470).
            (data.last_day === true ? ': last day to sign' : '');
    case 'request.turn_started':
      return `Next signer’s turn started: ${signersListed(name, data)}`;
    case 'request.signer_updated':
      return signerUpdated(name(data), data);
    case 'request.updated':
      return updated(data);
    case 'request.signer_added':
      return `Signer added: ${name(data)}`;
    case 'request.signer_removed':
      return signerRemoved(name(data), data);
    case 'request.contract_added':
      return contractChanged(true, data);
    case 'request.contract_removed':
      return contractChanged(false, data);
    case 'request.contracts_reordered':
      return contractsReordered(data);
    case 'request.delivery_failed':
      return deliveryFailed(name(data), data);
    case 'request.completed':
      return 'Completed: every signer signed';
    case 'request.cancelled':
      return cancelled(data);
    case 'request.expired':
      return 'Expired';
    default:
      return entry.type;
  }
};

interface Latest {
  readonly entries: readonly HistoryEntry[];
  readonly total: number;
}

/**
 * The latest HISTORY_SHOWN entries, oldest first: one call for the first page newest
 * first (`order=desc`), turned round.
 */
const latestEntries = async (visitor: Visitor, requestId: string): Promise<E.Either<ApiProblem, Latest>> => {
  const latest = await visitor.api({
    method: 'GET',
    path: `/v1.1/requests/${segment(requestId)}/events?order=desc&per_page=${HISTORY_SHOWN}`,
    codec: HistoryPage,
  });
  return E.map((p: HistoryPage) => ({ entries: [...p.data].reverse(), total: p.total_count }))(latest);
};

/** The History section of `r`'s page. */
export const historySection = async (visitor: Visitor, r: RequestView): Promise<Html> => {
  const found = await latestEntries(visitor, r.id);
  const body = (): Html | '' => {
    if (E.isLeft(found))
      return html`<p class="errors">
        The history cannot be shown: ${found.left.detail ?? found.left.title}
      </p>`;
    const { entries, total } = found.right;
    if (entries.length === 0)
      return html`<p class="notice">
        ${r.state === 'draft' ? 'Nothing has happened yet.' : 'No events are recorded for this Request.'}
      </p>`;
    const partial = total > entries.length;
    const name = signerNamed(r);
    return html`${
      partial
        ? html`<p class="hint">
            There are ${String(total)} events in all: the latest ${String(entries.length)} are shown.
          </p>`
        : ''
    }
    ${dataTable({
      caption: partial
        ? `The latest ${entries.length} of ${total} events, oldest first`
        : 'What happened to this Request, oldest first',
      columns: ['When', 'What happened', { label: 'Event', wide: true }],
      rows: entries.map((e) => [time(e.created_at), whatHappened(name, e), html`<code>${e.type}</code>`]),
    })}`;
  };
  return html`<section aria-labelledby="history-title">
    <h2 id="history-title">History</h2>
    ${body()}
  </section>`;
};
