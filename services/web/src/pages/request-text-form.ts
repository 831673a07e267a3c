import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary } from '../layout.js';
import { keyShownAgain } from './common.js';

/**
 * A form on a Request's page that replaces one of its texts, or removes it: the message to
 * its signers (ADR 3380, `request-message.ts`), its title (ADR 3390, `request-title.ts`) and
 * its e-mail subject (ADR 3400, `request-subject.ts`).
 * The field is named as the API's member; `was_<name>` carries the text the page showed.
 */
export type TextName = 'message' | 'subject' | 'title';

/** What the form sent, kept as typed so a refused form shows it again. */
export interface TextForm {
  readonly idempotencyKey: string;
  readonly text: string;
  /** The text the page showed; empty: none. */
  readonly was: string;
  /** **Remove …** was pressed. */
  readonly remove: boolean;
}

export const textFormOf = (name: TextName, fields: FormFields): TextForm => ({
  idempotencyKey: fields.idempotency_key ?? '',
  text: fields[name] ?? '',
  was: fields[`was_${name}`] ?? '',
  remove: fields.remove === '1',
});

/**
 * The PATCH body (`null` removes the text), or undefined when it is the one the page
 * showed; `normalise` makes a typed text the API's (blank: none).
 */
export const textChangeOf = <K extends TextName>(
  name: K,
  normalise: (text: string) => string | null,
  form: TextForm,
): Readonly<Record<K, string | null>> | undefined => {
  const value = form.remove ? null : normalise(form.text);
  return value === normalise(form.was) ? undefined : ({ [name]: value } as Record<K, string | null>);
};

/** The refusal first on the page, linking to the field; it says that `what` was not changed. */
export const textSummary = (refused: ApiProblem, name: TextName, label: string, what: string): Html => {
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} ${what} was not changed.`;
  return problemSummary({ ...refused, detail }, { [name]: name }, { [name]: label });
};

/**
 * The form that adds, changes or removes one text of a Request: `field` draws its input
 * (labelled "Add a …" or "Change the …"), prefilled with what was typed, else the text the
 * page shows (`current`); **Remove the …** only when there is one.
 */
export const textForm = (input: {
  readonly name: TextName;
  readonly action: string;
  readonly csrf: string;
  readonly current: string | null;
  readonly typed?: TextForm | undefined;
  readonly problem?: ApiProblem | undefined;
  readonly field: (input: { value: string; error: string | undefined; label: string }) => Html;
  /** Said under the buttons. */
  readonly hint?: string;
}): Html => {
  const { name, current, typed, problem } = input;
  return html`<form method="post" action="${input.action}" novalidate>
    ${csrfField(input.csrf)}
    <input type="hidden" name="idempotency_key" value="${keyShownAgain(typed?.idempotencyKey, problem)}" />
    <input type="hidden" name="was_${name}" value="${current ?? ''}" />
    ${input.field({
      value: typed?.text ?? current ?? '',
      error: typed === undefined ? undefined : fieldErrors(problem).get(name),
      label: current === null ? `Add a ${name}` : `Change the ${name}`,
    })}
    <div class="bar">
      <button type="submit">Save ${name}</button>
      ${
        current === null
          ? ''
          : html`<button type="submit" name="remove" value="1" class="danger">Remove the ${name}</button>`
      }
    </div>
    ${input.hint === undefined ? '' : html`<p class="hint">${input.hint}</p>`}
  </form>`;
};
