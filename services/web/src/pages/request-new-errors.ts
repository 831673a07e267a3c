import type { FieldError } from '@esign/contracts';
import type { FieldChoice, Sent } from './request-new-input.js';

/** Where New Request shows each of the API's refusals: beside the field its `errors[].path` names. */

const SIGNER_PATH = /^signers\[(\d+)\](?:\.(.*))?$/;

/** The id of the form field an API `errors[].path` names, or undefined for one the form has no field for. */
export const placeOf = (path: string, sent: Sent, choices: readonly FieldChoice[]): string | undefined => {
  const top = /^[a-z_]+/.exec(path)?.[0];
  const own = [
    'title',
    'contracts',
    'render_data',
    'subject',
    'message',
    'cc',
    'redirect_url',
    'expires_at',
    'reminder_interval_days',
  ];
  if (top !== undefined && own.includes(top)) return top;
  if (top === 'test_mode' || top === 'allow_reassign') return top;
  if (path === 'signers') return 'signer_id_1';
  const signer = SIGNER_PATH.exec(path);
  if (signer) {
    const row = sent.rows[Number(signer[1])];
    if (row === undefined) return undefined;
    const part = signer[2] ?? '';
    if (part === 'signer.email' || part === 'email') return `email_${row}`;
    if (part === 'signer.mobile_number' || part === 'mobile_number') return `mobile_${row}`;
    return `signer_id_${row}`;
  }
  const field = /^fields\[(\d+)\]/.exec(path);
  const name = field ? sent.fieldNames[Number(field[1])] : undefined;
  const index = choices.findIndex((c) => c.name === name);
  return index < 0 ? undefined : `field_${index}`;
};

/** The API's refusals placed by field id (several on one field read one after another). */
export const placeErrors = (
  errors: readonly FieldError[],
  sent: Sent,
  choices: readonly FieldChoice[],
): { placed: Map<string, string>; elsewhere: FieldError[] } => {
  const placed = new Map<string, string>();
  const elsewhere: FieldError[] = [];
  for (const e of errors) {
    const id = placeOf(e.path, sent, choices);
    if (id === undefined) elsewhere.push(e);
    else {
      const message =
        (id === 'render_data' || id === 'cc') && e.path !== id ? `${e.path}: ${e.message}` : e.message;
      placed.set(id, placed.has(id) ? `${placed.get(id)} ${message}` : message);
    }
  }
  return { placed, elsewhere };
};
