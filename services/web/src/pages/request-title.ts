import { LIMITS, type RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html, type Html } from '../html.js';
import { isOpen } from './common.js';
import { textForm, textSummary, type TextForm } from './request-text-form.js';

/**
 * A Request's **title** (ADR 3390): the sender's own name for it, shown in their lists and
 * searched there; signers never see it. New Request takes it; a Request's page shows it in
 * its heading, and a draft's or a sent Request's page sets, changes or removes it with
 * `PATCH /v1.1/requests/:id` `{ title }` (the route: `request-draft-routes.ts`).
 */

/** The title as the API takes it: white space around it dropped; blank: none. */
export const titleOf = (text: string): string | null => {
  const title = text.trim();
  return title === '' ? null : title;
};

/** The field, on New Request and a Request's page; its id is the API's path. */
export const titleField = (input: {
  readonly value: string;
  readonly error: string | undefined;
  readonly label: string;
}): Html =>
  html`<div class="field">
    <label for="title">${input.label}</label>
    <p class="hint" id="title-hint">
      Your own name for this Request, shown in your lists; signers do not see it.
    </p>
    ${input.error ? html`<p class="error" id="title-error">${input.error}</p>` : ''}
    <input
      type="text"
      id="title"
      name="title"
      maxlength="${String(LIMITS.title)}"
      value="${input.value}"
      aria-describedby="title-hint${input.error ? ' title-error' : ''}"
      ${input.error ? html` aria-invalid="true"` : ''}
    />
  </div>`;

/** The heading of a Request's page: its title when it has one, its short id always. */
export const requestHeading = (r: Pick<RequestView, 'id' | 'title'>): Html =>
  r.title === null
    ? html`Request <code>${r.id.slice(0, 8)}</code>`
    : html`${r.title} <span class="hint">Request <code>${r.id.slice(0, 8)}</code></span>`;

/** What the title form sent (the shared text form, `request-text-form.ts`). */
export type TitleForm = TextForm;

export const TITLE_DONE: Record<string, string> = {
  title: 'The title was saved: your lists show it and find the Request by it.',
  'title-removed': 'The title was removed.',
  'title-same': 'The title was already as given: nothing was changed.',
};

/** The refusal first on the page, linking to the field; it says that nothing was changed. */
export const titleSummary = (refused: ApiProblem): Html =>
  textSummary(refused, 'title', 'Title:', 'The title');

/**
 * The section on a draft's or a sent Request's page: the form that sets, changes or
 * removes the title. A closed Request's title shows in its heading only.
 */
export const titleSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: TitleForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r } = input;
  if (!isOpen(r)) return '';
  return html`<section class="panel" aria-labelledby="title-heading">
    <h2 id="title-heading">Title</h2>
    ${textForm({ ...input, name: 'title', current: r.title, field: titleField })}
  </section>`;
};
