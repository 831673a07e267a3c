import { randomUUID } from 'node:crypto';
import type { NotificationStatus, RequestView, SignerView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html } from '../html.js';
import { csrfField, stateBadge, time } from '../layout.js';
import { removeButton } from './request-draft-signers.js';
import { contactForm, reachable, type ContactForm } from './request-signer-contact.js';
import type { SignerSettingsForm } from './request-signer-settings.js';
import { signerSettingsForm } from './request-signer-settings-form.js';
import { replaceForm, type ReplaceForm } from './request-signer-replace-form.js';

/** A signer's row on a Request's page: contact, state, deliveries, Execution URL, and what can be done. */

const DELIVERY: Record<NotificationStatus, [string, string]> = {
  not_requested: ['Not requested', 'none'],
  no_address: ['No address', 'failed'],
  pending: ['Sending', 'pending'],
  delivered: ['Sent', 'delivered'],
  failed: ['Failed', 'failed'],
  quota_exceeded: ['Not sent: daily quota used up', 'failed'],
};

/** A draft's `pending` channel has sent nothing yet: it will be used when the Request is sent. */
const delivery = (status: NotificationStatus, draft: boolean) =>
  draft && status === 'pending'
    ? html`<span class="state state-none">When sent</span>`
    : html`<span class="state state-${DELIVERY[status][1]}">${DELIVERY[status][0]}</span>`;

/**
 * A fresh Execution URL for a signer of a sent Request who has not signed (ADR 1321):
 * for a link that expired or was lost. The form carries its own Idempotency-Key, so a
 * second click makes no second link and sends nothing twice.
 */
const newLinkForm = (base: string, csrf: string, requestId: string, s: SignerView, i: number) =>
  html`<form method="post" action="${base}/requests/${requestId}/new-link" class="new-link">
    ${csrfField(csrf)}
    <input type="hidden" name="signer_id" value="${s.signer_id}" />
    <input type="hidden" name="idempotency_key" value="${randomUUID()}" />
    ${
      reachable(s)
        ? html`<input type="checkbox" id="notify-${i}" name="notify" value="true" />
            <label for="notify-${i}">Send it to them</label>`
        : ''
    }
    <button type="submit" class="secondary" aria-label="New Execution URL for ${s.signer_id}">
      New link
    </button>
  </form>`;

/** What the page shows in a signer's row, besides the Request: a refused correction, replacement or settings of theirs. */
export interface RowInput {
  readonly base: string;
  readonly csrf: string;
  readonly correction?: ContactForm | undefined;
  readonly replacement?: ReplaceForm | undefined;
  readonly settings?: SignerSettingsForm | undefined;
  readonly problem?: ApiProblem | undefined;
}

export const signerRow = (input: RowInput, r: RequestView) => (s: SignerView, i: number) => {
  const { base, csrf, correction } = input;
  const pending = r.state === 'sent' && s.state === 'pending';
  // A draft's signers show the Site's record: corrected there, for every draft (ADR 3200).
  const draft = r.state === 'draft';
  return html`<tr>
    <th scope="row">${s.signer_id}</th>
    <td>
      ${s.email ?? ''}${s.email && s.mobile_number ? html`<br />` : ''}${s.mobile_number ?? ''}
      ${
        pending || draft
          ? contactForm({
              action: `${base}/requests/${r.id}/${draft ? 'draft-signer-contact' : 'signer-contact'}`,
              variant: draft ? 'draft' : 'sent',
              csrf,
              signer: s,
              i,
              typed: correction?.signerId === s.signer_id ? correction : undefined,
              problem: input.problem,
            })
          : ''
      }
      ${
        pending
          ? replaceForm({
              action: `${base}/requests/${r.id}/replace-signer`,
              csrf,
              signer: s,
              i,
              typed: input.replacement?.replaced === s.signer_id ? input.replacement : undefined,
              problem: input.problem,
            })
          : ''
      }
      ${signerSettingsForm({
        action: `${base}/requests/${r.id}/signer-settings`,
        csrf,
        request: r,
        signer: s,
        i,
        typed: input.settings?.signerId === s.signer_id ? input.settings : undefined,
        problem: input.problem,
      })}
    </td>
    <td>${stateBadge(s.state)}${s.signed_at ? html`<br />${time(s.signed_at)}` : ''}</td>
    <td>${delivery(s.notifications.email, draft)}</td>
    <td>${delivery(s.notifications.sms, draft)}</td>
    <td class="copy-cell">
      <div class="copy">
        <label class="visually-hidden" for="url-${i}">Execution URL for ${s.signer_id}</label>
        <input id="url-${i}" type="text" readonly value="${s.request_url}" />
        <button
          type="button"
          class="secondary"
          data-copy="url-${i}"
          hidden
          aria-label="Copy the Execution URL for ${s.signer_id}"
        >
          Copy
        </button>
      </div>
      <p class="hint" id="url-${i}-status" role="status"></p>
      ${pending ? newLinkForm(base, csrf, r.id, s, i) : ''} ${removeButton(base, csrf, r, s)}
    </td>
  </tr>`;
};
