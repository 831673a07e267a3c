import { LIMITS, type RequestView } from '@esign/contracts';
import { html, type Html } from '../html.js';
import { numberField, textField } from '../layout.js';
import { localeOptions } from './locale-options.js';
import { AUTH_CHOICES } from './request-draft-signers.js';

/**
 * The controls of what a draft's signer has besides their contact (ADRs 3280, 3290): their
 * place in the signing order, a check before signing with its access code, and their
 * language. **Add a signer** asks them of a new signer; each row's **Signing settings**
 * changes them for a signer already on the draft.
 */

/** A labelled select with its hint and its error, tied by `aria-describedby`. */
export const select = (input: {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  readonly hint: string;
  readonly options: Html | readonly Html[];
  readonly error: string | undefined;
}): Html => {
  const { id, error } = input;
  return html`<div class="field">
    <label for="${id}">${input.label}</label>
    <p class="hint" id="${id}-hint">${input.hint}</p>
    ${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
    <select
      id="${id}"
      name="${input.name}"
      aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"
      ${error ? html` aria-invalid="true"` : ''}
    >
      ${input.options}
    </select>
  </div>`;
};

/** The signing order of the draft's signers, lowest first, each once; empty when they have none. */
export const ordersOf = (signers: RequestView['signers']): number[] =>
  [...new Set(signers.map((s) => s.order).filter((o): o is number => o !== null))].sort((a, b) => a - b);

/** What the controls show: as typed, or as the signer has them ('' for none). */
export interface SettingsValues {
  readonly order: string;
  /** The check before signing ('' for none). */
  readonly method: string;
  readonly accessCode: string;
  /** Their language ('' for the Site's default). */
  readonly locale: string;
}

/** The ids of the four controls. */
export interface SettingsIds {
  readonly order: string;
  readonly auth: string;
  readonly code: string;
  readonly locale: string;
}

/** The ids of the controls whose names start with `prefix`. */
export const settingsIds = (prefix: string): SettingsIds => ({
  order: `${prefix}-order`,
  auth: `${prefix}-auth`,
  code: `${prefix}-code`,
  locale: `${prefix}-locale`,
});

/** The controls' ids by the paths of the API's field errors. */
export const settingsPaths = (ids: SettingsIds): Record<string, string> => ({
  order: ids.order,
  authentication: ids.auth,
  'authentication.method': ids.auth,
  'authentication.access_code': ids.code,
  locale: ids.locale,
});

/** How an error summary names each control it links to, by path. */
export const SETTINGS_LABELS: Readonly<Record<string, string>> = {
  order: 'Signing order:',
  authentication: 'Check before signing:',
  'authentication.method': 'Check before signing:',
  'authentication.access_code': 'Access code:',
  locale: 'Language:',
};

export const CODE_HINT =
  'Only with an access code: 4 to 32 characters. Tell it to them yourself; it is kept hashed and never shown again.';

/** The four controls, each error (by control id) beside its control. */
export const settingsControls = (input: {
  readonly ids: SettingsIds;
  readonly values: SettingsValues;
  readonly errors: ReadonlyMap<string, string>;
  readonly orderHint: string;
  readonly codeHint?: string;
}): Html => {
  const { ids, values, errors } = input;
  return html`${numberField({
    id: ids.order,
    name: 'order',
    label: 'Signing order',
    min: 1,
    max: LIMITS.signers,
    hint: input.orderHint,
    value: values.order,
    error: errors.get(ids.order),
  })}
  ${select({
    id: ids.auth,
    name: 'authentication',
    label: 'Check before signing',
    hint: 'What they enter before the contract is shown; with none, their link alone opens it.',
    options: AUTH_CHOICES.map(
      ([method, label]) =>
        html`<option value="${method}" ${values.method === method ? html` selected` : ''}>${label}</option>`,
    ),
    error: errors.get(ids.auth),
  })}
  ${textField({
    id: ids.code,
    name: 'access_code',
    label: 'Access code',
    hint: input.codeHint ?? CODE_HINT,
    value: values.accessCode,
    autocomplete: 'off',
    error: errors.get(ids.code),
  })}
  ${select({
    id: ids.locale,
    name: 'locale',
    label: 'Language',
    hint: 'What their signing page, e-mails and texts are written in; else the Site’s default, else English.',
    options: html`<option value="" ${values.locale === '' ? html` selected` : ''}>Site’s default</option>
      ${localeOptions(values.locale)}`,
    error: errors.get(ids.locale),
  })}`;
};
