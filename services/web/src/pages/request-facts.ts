import * as E from 'fp-ts/lib/Either.js';
import { RequestList, type RequestView } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { stateBadge, time } from '../layout.js';

/**
 * The facts of a Request's page: its id, source and copies, contracts, CC, dates, reminders
 * and redirect.
 */

/** How many of a Request's copies its page lists. */
export const COPIES_SHOWN = 10;

/**
 * The Request's copies (`?copied_from=`, ADR 3410), newest first, as the fact that lists
 * them; nothing when it has none, or when they cannot be read (the page goes on without).
 */
export const copiesFact = async (deps: WebDeps, visitor: Visitor, r: RequestView): Promise<Html | ''> => {
  const found = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${r.site_id}/requests?${new URLSearchParams({ copied_from: r.id, per_page: String(COPIES_SHOWN) }).toString()}`,
    codec: RequestList,
  });
  if (E.isLeft(found) || found.right.total_count === 0) return '';
  const { data, total_count: total } = found.right;
  return html`<dt>Copied into</dt>
    <dd>
      <ul class="plain">
        ${data.map(
          (c) =>
            html`<li>
              <a href="${deps.base}/requests/${c.id}"
                >${c.title ?? html`Request <code>${c.id.slice(0, 8)}</code>`}</a
              >
              ${stateBadge(c.state)}
            </li>`,
        )}
      </ul>
      ${total > data.length ? html`<span class="hint">and ${String(total - data.length)} older</span>` : ''}
    </dd>`;
};

/** The automatic reminders (ADR 3130): how often, and when the next goes out while one is scheduled. */
const reminderFacts = (r: Pick<RequestView, 'reminder_interval_days' | 'next_reminder_at'>): Html | '' =>
  r.reminder_interval_days === null
    ? ''
    : html`<dt>Automatic reminders</dt>
        <dd>
          every ${String(r.reminder_interval_days)} ${r.reminder_interval_days === 1 ? 'day' : 'days'};
          ${r.next_reminder_at ? html`next ${time(r.next_reminder_at)}` : 'none scheduled'}
        </dd>`;

/** The Request a copy was made from (ADR 3410), linked by its short id, on every visit. */
const sourceFact = (deps: WebDeps, r: Pick<RequestView, 'copied_from'>): Html | '' =>
  r.copied_from === null
    ? ''
    : html`<dt>Copied from</dt>
        <dd>
          Request
          <a href="${deps.base}/requests/${r.copied_from}"
            ><code>${r.copied_from.slice(0, 8)}</code
            ><span class="visually-hidden"> (Request ${r.copied_from})</span></a
          >
        </dd>`;

/** The bulk send one of whose rows made the Request (ADR 3510), linked to its progress page. */
const bulkSendFact = (deps: WebDeps, r: Pick<RequestView, 'bulk_send_id'>): Html | '' =>
  r.bulk_send_id === null
    ? ''
    : html`<dt>Made by</dt>
        <dd>
          bulk send
          <a href="${deps.base}/bulk-sends/${r.bulk_send_id}"
            ><code>${r.bulk_send_id.slice(0, 8)}</code
            ><span class="visually-hidden"> (bulk send ${r.bulk_send_id})</span></a
          >
        </dd>`;

/** A fact shown only when the Request has it. */
const fact = (term: string, value: Html | string | null): Html | '' =>
  value === null
    ? ''
    : html`<dt>${term}</dt>
        <dd>${value}</dd>`;

/** The list of facts below a Request's top actions; `copies` from `copiesFact`, `contracts` from `contractsFact`. */
export const requestFacts = (deps: WebDeps, r: RequestView, copies: Html | '', contracts: Html): Html =>
  html`<dl class="facts">
    <dt>Id</dt>
    <dd><code>${r.id}</code></dd>
    ${sourceFact(deps, r)} ${bulkSendFact(deps, r)} ${copies} ${contracts}
    ${
      r.cc.length > 0
        ? html`<dt>Copies to</dt>
            <dd>
              ${r.cc.join(', ')} <span class="hint">(the signed document, once everyone has signed)</span>
            </dd>`
        : ''
    }
    <dt>Created</dt>
    <dd>${time(r.created_at)}</dd>
    <dt>Sent</dt>
    <dd>${r.sent_at ? time(r.sent_at) : '—'}</dd>
    ${fact('Expires', r.expires_at ? time(r.expires_at) : null)}
    ${fact('Completed', r.completed_at ? time(r.completed_at) : null)}
    ${fact('Cancelled', r.cancelled_at ? time(r.cancelled_at) : null)}
    ${fact('Last reminded', r.last_reminded_at ? html`${time(r.last_reminded_at)} (${r.remind_count}×)` : null)}
    ${reminderFacts(r)} ${fact('Redirect URL', r.redirect_url ? r.redirect_url : null)}
    ${fact('Signers may reassign', r.allow_reassign ? 'Yes — a signer may ask someone else to sign in their place' : null)}
  </dl>`;
