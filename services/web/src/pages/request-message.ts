import { LIMITS, type RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html, type Html } from '../html.js';
import { textForm, textSummary, type TextForm } from './request-text-form.js';

/**
 * A Request's **message to its signers** (ADR 3380): plain text they read in their
 * invitation and reminder e-mails and on their signing page. New Request takes it; a
 * Request's page shows it as text, line breaks kept; a draft's page changes or removes it
 * with `PATCH /v1.1/requests/:id` `{ message }` (the route: `request-draft-routes.ts`).
 */

/** The message as the API takes it: white space around it dropped, line breaks as `\n`; blank: none. */
export const messageOf = (text: string): string | null => {
  const message = text.replace(/\r\n?/g, '\n').trim();
  return message === '' ? null : message;
};

/** The field, on New Request and a draft's page; its id is the API's path. */
export const messageField = (input: {
  readonly value: string;
  readonly error: string | undefined;
  readonly label: string;
}): Html =>
  html`<div class="field">
    <label for="message">${input.label}</label>
    <p class="hint" id="message-hint">
      Shown in their invitation and reminder e-mails and on their signing page. Up to
      ${LIMITS.message.toLocaleString('en')} characters.
    </p>
    ${input.error ? html`<p class="error" id="message-error">${input.error}</p>` : ''}
    <textarea
      id="message"
      name="message"
      rows="4"
      maxlength="${String(LIMITS.message)}"
      class="prose"
      aria-describedby="message-hint${input.error ? ' message-error' : ''}"
      ${input.error ? html` aria-invalid="true"` : ''}
    >
${input.value}</textarea>
  </div>`;

/** What a draft's form sent (the shared text form, `request-text-form.ts`). */
export type MessageForm = TextForm;

export const MESSAGE_DONE: Record<string, string> = {
  message:
    'The message to the signers was saved: they will read it in their invitation and reminder e-mails and on their signing page.',
  'message-removed': 'The message to the signers was removed.',
  'message-same': 'The message to the signers was already as given: nothing was changed.',
};

/** The refusal first on the page, linking to the field; it says that nothing was changed. */
export const messageSummary = (refused: ApiProblem): Html =>
  textSummary(refused, 'message', 'Message:', 'The message to the signers');

/**
 * The section: the message as the signers read it (escaped text, line breaks kept), when
 * there is one; on a draft, the form that changes, adds or removes it.
 */
export const messageSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: MessageForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r } = input;
  if (r.message === null && r.state !== 'draft') return '';
  const shown =
    r.message === null
      ? html`<p class="hint">No message yet: the signers get the usual invitation only.</p>`
      : html`<div class="signer-message" id="message-text">${r.message}</div>`;
  const form =
    r.state !== 'draft'
      ? ''
      : textForm({
          ...input,
          name: 'message',
          current: r.message,
          field: messageField,
          hint: 'Until the Request is sent you can change it; once it is sent it is fixed.',
        });
  return html`<section class="panel" aria-labelledby="message-title">
    <h2 id="message-title">Message to the signers</h2>
    ${shown} ${form}
  </section>`;
};
