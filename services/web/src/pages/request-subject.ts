import { LIMITS, type RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html, type Html } from '../html.js';
import { textForm, textSummary, type TextForm } from './request-text-form.js';

/**
 * A Request's **e-mail subject** (ADR 3400): one line the signers read as the subject of
 * their invitation e-mails, in place of the usual one; reminders put "Reminder:" before it.
 * New Request and bulk send take it; a Request's page shows it as text, and a draft's page
 * changes or removes it with `PATCH /v1.1/requests/:id` `{ subject }` (the route:
 * `request-draft-routes.ts`). Once sent it is fixed, as the message is (ADR 3380).
 */

/** The subject as the API takes it: white space around it dropped; blank: none. */
export const subjectOf = (text: string): string | null => {
  const subject = text.trim();
  return subject === '' ? null : subject;
};

/** The field, on New Request, bulk send and a draft's page; its id is the API's path. */
export const subjectField = (input: {
  readonly value: string;
  readonly error: string | undefined;
  readonly label: string;
}): Html =>
  html`<div class="field">
    <label for="subject">${input.label}</label>
    <p class="hint" id="subject-hint">
      Replaces the usual subject of the invitation e-mails; reminders put “Reminder:” before it. Up to
      ${String(LIMITS.subject)} characters.
    </p>
    ${input.error ? html`<p class="error" id="subject-error">${input.error}</p>` : ''}
    <input
      type="text"
      id="subject"
      name="subject"
      maxlength="${String(LIMITS.subject)}"
      value="${input.value}"
      aria-describedby="subject-hint${input.error ? ' subject-error' : ''}"
      ${input.error ? html` aria-invalid="true"` : ''}
    />
  </div>`;

/** What a draft's form sent (the shared text form, `request-text-form.ts`). */
export type SubjectForm = TextForm;

export const SUBJECT_DONE: Record<string, string> = {
  subject: 'The e-mail subject was saved: the signers’ invitation e-mails will have it.',
  'subject-removed': 'The e-mail subject was removed: the invitation e-mails will have the usual one.',
  'subject-same': 'The e-mail subject was already as given: nothing was changed.',
};

/** The refusal first on the page, linking to the field; it says that nothing was changed. */
export const subjectSummary = (refused: ApiProblem): Html =>
  textSummary(refused, 'subject', 'E-mail subject:', 'The e-mail subject');

/**
 * The section: the subject as the signers read it (escaped text), when there is one; on a
 * draft, the form that changes, adds or removes it.
 */
export const subjectSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: SubjectForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r } = input;
  if (r.subject === null && r.state !== 'draft') return '';
  const shown =
    r.subject === null
      ? html`<p class="hint">None: the invitation e-mails have the usual subject.</p>`
      : html`<p id="subject-text">${r.subject}</p>`;
  const form =
    r.state !== 'draft'
      ? ''
      : textForm({
          ...input,
          name: 'subject',
          current: r.subject,
          field: subjectField,
          hint: 'Until the Request is sent you can change it; once it is sent it is fixed.',
        });
  return html`<section class="panel" aria-labelledby="subject-title">
    <h2 id="subject-title">E-mail subject</h2>
    ${shown} ${form}
  </section>`;
};
