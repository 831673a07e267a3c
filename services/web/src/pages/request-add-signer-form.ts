import { LIMITS, type RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html, type Html } from '../html.js';
import { csrfField, numberField, textField } from '../layout.js';
import { keyShownAgain } from './common.js';
import { localeOptions } from './locale-options.js';
import { AUTH_CHOICES, addSignerErrors, type AddSignerForm } from './request-draft-signers.js';
import { checkbox } from './request-new-form.js';

/**
 * **Add a signer** on a draft's page (ADR 3280): the controls of a New Request signer row
 * (signer id, e-mail address, mobile number, channels), and what a `signers[]` entry can
 * say besides: their place in the signing order, a check before signing and their
 * language. Each refusal shows beside its control, as typed.
 */

/** A labelled select with its hint and its error, tied by `aria-describedby`. */
const select = (input: {
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

/** The signing order of the draft's signers, lowest first; empty when they have none. */
const ordersOf = (r: RequestView): number[] =>
  [...new Set(r.signers.map((s) => s.order).filter((o): o is number => o !== null))].sort((a, b) => a - b);

/** The form as a fresh page shows it: e-mail ticked (as on New Request), next in the order if there is one. */
const blankOf = (r: RequestView): AddSignerForm => {
  const orders = ordersOf(r);
  return {
    idempotencyKey: '',
    signer: { signerId: '', email: '', mobile: '', notifyEmail: true, notifySms: false },
    order: orders.length === 0 ? '' : String(Math.min(orders[orders.length - 1]! + 1, LIMITS.signers)),
    method: '',
    accessCode: '',
    locale: '',
  };
};

/**
 * The section, on a draft only: a fresh form, or the one refused (`typed`) with each of the
 * API's errors beside its control.
 */
export const addSignerSection = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly typed?: AddSignerForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, typed, problem: refused } = input;
  if (r.state !== 'draft') return '';
  const errors = typed === undefined ? new Map<string, string>() : addSignerErrors(refused);
  const form = typed ?? blankOf(r);
  const s = form.signer;
  const orders = ordersOf(r);
  return html`<section class="panel" aria-labelledby="add-signer-title">
    <h3 id="add-signer-title">Add a signer</h3>
    <p class="hint">
      They are added last. An address or number typed here is kept in the Site’s details of this signer, as on
      New Request; left empty, the Site’s are used. Their Execution URL becomes live when the Request is sent.
    </p>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="idempotency_key" value="${keyShownAgain(typed?.idempotencyKey, refused)}" />
      <fieldset class="signer">
        <legend>The new signer</legend>
        <div class="signer-grid">
          ${textField({
            id: 'add-signer-id',
            name: 'signer_id',
            label: 'Signer id',
            hint: 'An e-mail address or a 10-digit US mobile number (they are then reached there), or any id of yours.',
            value: s.signerId,
            error: errors.get('add-signer-id'),
          })}
          ${textField({
            id: 'add-signer-email',
            name: 'email',
            label: 'E-mail address',
            type: 'email',
            value: s.email,
            error: errors.get('add-signer-email'),
          })}
          ${textField({
            id: 'add-signer-mobile',
            name: 'mobile_number',
            label: 'Mobile number (US)',
            type: 'tel',
            hint: '10 digits, or 1 and 10 digits.',
            value: s.mobile,
            error: errors.get('add-signer-mobile'),
          })}
        </div>
        <div class="bar">
          ${checkbox('add-signer-by-email', 'Send by e-mail', s.notifyEmail, errors.get('add-signer-by-email'), 'send_to_email')}
          ${checkbox('add-signer-by-sms', 'Send by SMS', s.notifySms, errors.get('add-signer-by-sms'), 'send_to_sms')}
        </div>
      </fieldset>
      <div class="signer-grid">
        ${numberField({
          id: 'add-signer-order',
          name: 'order',
          label: 'Signing order',
          min: 1,
          max: LIMITS.signers,
          hint:
            orders.length === 0
              ? 'This draft’s signers have no signing order: leave it empty, and everyone signs in parallel.'
              : `Lowest first, equal numbers in parallel; this draft’s signers have ${orders.join(', ')}.`,
          value: form.order,
          error: errors.get('add-signer-order'),
        })}
        ${select({
          id: 'add-signer-auth',
          name: 'authentication',
          label: 'Check before signing',
          hint: 'What they enter before the contract is shown; with none, their link alone opens it.',
          options: AUTH_CHOICES.map(
            ([method, label]) =>
              html`<option value="${method}" ${form.method === method ? html` selected` : ''}>
                ${label}
              </option>`,
          ),
          error: errors.get('add-signer-auth'),
        })}
        ${textField({
          id: 'add-signer-code',
          name: 'access_code',
          label: 'Access code',
          hint: 'Only with an access code: 4 to 32 characters. Tell it to them yourself; it is kept hashed and never shown again.',
          value: form.accessCode,
          autocomplete: 'off',
          error: errors.get('add-signer-code'),
        })}
        ${select({
          id: 'add-signer-locale',
          name: 'locale',
          label: 'Language',
          hint: 'What their signing page, e-mails and texts are written in; else the Site’s default, else English.',
          options: html`<option value="" ${form.locale === '' ? html` selected` : ''}>Site’s default</option>
            ${localeOptions(form.locale)}`,
          error: errors.get('add-signer-locale'),
        })}
      </div>
      <button type="submit">Add signer</button>
    </form>
  </section>`;
};
