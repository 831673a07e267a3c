import { LIMITS, type RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html, type Html } from '../html.js';
import { csrfField, textField } from '../layout.js';
import { keyShownAgain } from './common.js';
import { addSignerErrors, type AddSignerForm } from './request-draft-signers.js';
import { checkbox } from './request-new-form.js';
import { ordersOf, settingsControls, settingsIds } from './request-signer-controls.js';

/**
 * **Add a signer** on a draft's page (ADR 3280): the controls of a New Request signer row
 * (signer id, e-mail address, mobile number, channels), and what a `signers[]` entry can
 * say besides: their place in the signing order, a check before signing and their
 * language. Each refusal shows beside its control, as typed.
 */

/** The form as a fresh page shows it: e-mail ticked (as on New Request), next in the order if there is one. */
const blankOf = (r: RequestView): AddSignerForm => {
  const orders = ordersOf(r.signers);
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
  const orders = ordersOf(r.signers);
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
        ${settingsControls({
          ids: settingsIds('add-signer'),
          values: form,
          errors,
          orderHint:
            orders.length === 0
              ? 'This draft’s signers have no signing order: leave it empty, and everyone signs in parallel.'
              : `Lowest first, equal numbers in parallel; this draft’s signers have ${orders.join(', ')}.`,
        })}
      </div>
      <button type="submit">Add signer</button>
    </form>
  </section>`;
};
