import { html, type Html } from '../html.js';
import { textField, tick } from '../layout.js';

/**
 * The contact fields Correct contact (ADR 3140) and Replace signer (ADR 3550) both show: an
 * e-mail address, a mobile number and the channels to send the link by, with each refusal of
 * the API beside its field.
 */

/**
 * The contact fields' ids of a form in row `i` (`prefix`: which form), by the path of the
 * API's field errors.
 */
export const contactFieldIds = (prefix: string, i: number): Record<string, string> => ({
  'signer.email': `${prefix}-${i}-email`,
  'signer.mobile_number': `${prefix}-${i}-mobile`,
  send_to: `${prefix}-${i}-by-email`,
  'send_to.email': `${prefix}-${i}-by-email`,
  'send_to.mobile_number': `${prefix}-${i}-by-sms`,
  notify: `${prefix}-${i}-notify`,
});

/** The address, the number and the channels as shown (or as typed, when refused). */
export interface ContactValues {
  readonly email: string;
  readonly mobile: string;
  readonly byEmail: boolean;
  readonly bySms: boolean;
}

/**
 * The e-mail and mobile fields and, unless `channels` is absent, the channel checkboxes
 * labelled as given; `errors` by field id. `clearable`: a cleared field removes the value.
 */
export const contactFields = (input: {
  readonly ids: Record<string, string>;
  readonly values: ContactValues;
  readonly errors: ReadonlyMap<string, string>;
  readonly clearable?: boolean;
  readonly channels?: { readonly email: string; readonly sms: string };
}): Html => {
  const { ids, values, errors, channels } = input;
  const clearable = input.clearable ?? false;
  return html`${textField({
    id: ids['signer.email']!,
    name: 'email',
    label: 'E-mail address',
    type: 'email',
    value: values.email,
    ...(clearable ? { hint: 'Clear it to remove the address.' } : {}),
    error: errors.get(ids['signer.email']!),
  })}
  ${textField({
    id: ids['signer.mobile_number']!,
    name: 'mobile_number',
    label: 'Mobile number (US)',
    type: 'tel',
    value: values.mobile,
    hint: `10 digits, or 1 and 10 digits.${clearable ? ' Clear it to remove the number.' : ''}`,
    error: errors.get(ids['signer.mobile_number']!),
  })}
  ${
    channels === undefined
      ? ''
      : html`<fieldset class="checks">
          <legend>Send their link by</legend>
          ${tick(ids['send_to.email']!, 'send_to_email', channels.email, values.byEmail, errors.get(ids['send_to.email']!))}
          ${tick(ids['send_to.mobile_number']!, 'send_to_sms', channels.sms, values.bySms, errors.get(ids['send_to.mobile_number']!))}
        </fieldset>`
  }`;
};
