import { problem } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { textField } from '../layout.js';

/** The ids of the two fields, for the problem summary's links. */
export const NEW_PASSWORD_FIELD_IDS = {
  new_password: 'new-password',
  confirm_new_password: 'confirm-new-password',
};

/** A new password, typed twice, with its rules as a hint (ADRs 2980, 3000, 3030). */
export const newPasswordFields = (
  errors: ReadonlyMap<string, string>,
  labels: { readonly password: string; readonly confirm: string } = {
    password: 'New password',
    confirm: 'Confirm new password',
  },
): Html =>
  html`${textField({
    id: NEW_PASSWORD_FIELD_IDS.new_password,
    name: 'new_password',
    label: labels.password,
    type: 'password',
    autocomplete: 'new-password',
    hint: 'At least 12 characters; not your e-mail address. A phrase of several words is easy to remember.',
    required: true,
    error: errors.get('new_password'),
  })}
  ${textField({
    id: NEW_PASSWORD_FIELD_IDS.confirm_new_password,
    name: 'confirm_new_password',
    label: labels.confirm,
    type: 'password',
    autocomplete: 'new-password',
    required: true,
    error: errors.get('confirm_new_password'),
  })}`;

/** The page's own refusal when the second entry differs: the API is not asked. */
export const newPasswordsDiffer = (
  fields: FormFields,
  detail = 'The new password was typed differently the second time; nothing was changed.',
): ApiProblem | undefined => {
  const next = fields.new_password ?? '';
  return next !== '' && next !== (fields.confirm_new_password ?? '')
    ? problem({
        status: 422,
        code: 'invalid_body',
        title: 'Invalid request body',
        detail,
        errors: [{ path: 'confirm_new_password', message: 'does not match the new password' }],
      })
    : undefined;
};
