import { LIMITS, type ContractSummary } from '@esign/contracts';
import type { FormFields } from '../forms.js';
import { messageOf } from './request-message.js';
import { reassignPart } from './request-reassign.js';
import { subjectOf } from './request-subject.js';
import { titleOf } from './request-title.js';
import { ccOf, expiryOf, reminderDaysOf, renderDataOf } from './request-values.js';

/**
 * How many signer rows a fresh form has, and the most **Add a signer** makes (as many
 * signers as a Request may have); empty rows are left out.
 */
export const SIGNER_ROWS = 3;
export const MAX_SIGNER_ROWS = LIMITS.signers;

/** The form's `Idempotency-Key`, as the page made it (a UUID). */
export const KEY = /^[A-Za-z0-9-]{8,100}$/;

export interface SignerRow {
  readonly signerId: string;
  readonly email: string;
  readonly mobile: string;
  readonly notifyEmail: boolean;
  readonly notifySms: boolean;
}

/** What the person typed and ticked, kept as typed so a refused form shows it again. */
export interface NewRequestForm {
  readonly idempotencyKey: string;
  /** The sender's own name for the Request as typed; blank: none (ADR 3390). */
  readonly title: string;
  readonly contracts: readonly number[];
  readonly signers: readonly SignerRow[];
  readonly inOrder: boolean;
  /** Field name → the signer row (1-based) who fills it. */
  readonly assign: Readonly<Record<string, number>>;
  readonly renderData: string;
  /** The e-mail subject as typed; blank: the usual one (ADR 3400). */
  readonly subject: string;
  /** The message to the signers as typed; blank: none (ADR 3380). */
  readonly message: string;
  /** The CC addresses as typed (ADR 3230). */
  readonly cc: string;
  readonly redirectUrl: string;
  readonly expiresAt: string;
  /** Days between automatic reminders, as typed; empty: none (ADR 3130). */
  readonly reminderDays: string;
  readonly testMode: boolean;
  /** Signers may ask someone else to sign in their place (ADR 3560). */
  readonly allowReassign: boolean;
  readonly sendNow: boolean;
}

/** A signer field of the published templates, listed once by name. */
export interface FieldChoice {
  readonly name: string;
  readonly type: string;
  readonly contracts: readonly ContractSummary[];
}

export const fieldChoices = (contracts: readonly ContractSummary[]): FieldChoice[] => {
  const byName = new Map<string, { type: string; contracts: ContractSummary[] }>();
  for (const c of contracts)
    for (const f of c.fields) {
      const known = byName.get(f.name);
      if (known === undefined) byName.set(f.name, { type: f.type, contracts: [c] });
      else known.contracts.push(c);
    }
  return [...byName].map(([name, v]) => ({ name, ...v }));
};

const rowNumbers = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

const blankSigner: SignerRow = { signerId: '', email: '', mobile: '', notifyEmail: true, notifySms: false };

/** The form with one more (empty) signer row, up to the most a Request may have. */
export const withAnotherSigner = (form: NewRequestForm): NewRequestForm =>
  form.signers.length >= MAX_SIGNER_ROWS ? form : { ...form, signers: [...form.signers, blankSigner] };

/** The rows a posted form had (its `signer_rows`), never fewer than a fresh form's. */
const rowsOf = (fields: FormFields): number => {
  const n = Number(fields.signer_rows);
  return Number.isInteger(n) ? Math.min(Math.max(n, SIGNER_ROWS), MAX_SIGNER_ROWS) : SIGNER_ROWS;
};

/** The form as a fresh page shows it: e-mail notices ticked, Send now ticked. */
export const blankForm = (idempotencyKey: string): NewRequestForm => ({
  idempotencyKey,
  title: '',
  contracts: [],
  signers: rowNumbers(SIGNER_ROWS).map(() => blankSigner),
  inOrder: true,
  assign: {},
  renderData: '',
  subject: '',
  message: '',
  cc: '',
  redirectUrl: '',
  expiresAt: '',
  reminderDays: '',
  testMode: false,
  allowReassign: false,
  sendNow: true,
});

/** The posted form, read field by field (anything unknown is ignored). */
export const formOf = (fields: FormFields): NewRequestForm => {
  const text = (name: string) => (fields[name] ?? '').trim();
  const assign = Object.fromEntries(
    Object.entries(fields)
      .filter(([name, value]) => name.startsWith('assign:') && /^[1-9][0-9]{0,2}$/.test(value))
      .map(([name, value]) => [name.slice('assign:'.length), Number(value)]),
  );
  return {
    idempotencyKey: fields.idempotency_key ?? '',
    title: fields.title ?? '',
    contracts: Object.keys(fields)
      .map((name) => /^contract_([1-9][0-9]{0,15})$/.exec(name)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number),
    signers: rowNumbers(rowsOf(fields)).map((n) => ({
      signerId: text(`signer_id_${n}`),
      email: text(`email_${n}`),
      mobile: text(`mobile_${n}`),
      notifyEmail: fields[`notify_email_${n}`] === 'true',
      notifySms: fields[`notify_sms_${n}`] === 'true',
    })),
    inOrder: fields.in_order === 'true',
    assign,
    renderData: fields.render_data ?? '',
    subject: fields.subject ?? '',
    message: fields.message ?? '',
    cc: text('cc'),
    redirectUrl: text('redirect_url'),
    expiresAt: text('expires_at'),
    reminderDays: text('reminder_interval_days'),
    testMode: fields.test_mode === 'true',
    allowReassign: fields.allow_reassign === 'true',
    sendNow: fields.send_now === 'true',
  };
};

/** The body of `POST /v1.1/sites/:id/requests` the form makes (`CreateRequestBody` in the contracts). */
export interface CreateBody {
  readonly title?: string;
  readonly contracts: number[];
  readonly signers: {
    readonly signer_id: string;
    readonly signer?: { readonly email?: string; readonly mobile_number?: string };
    readonly send_to: { readonly email: boolean; readonly mobile_number: boolean };
    readonly order?: number;
  }[];
  readonly fields?: { readonly name: string; readonly assigned_to: string }[];
  readonly render_data?: Record<string, string>;
  readonly subject?: string;
  readonly message?: string;
  readonly cc?: string[];
  readonly redirect_url?: string;
  readonly expires_at?: string;
  readonly reminder_interval_days?: number;
  readonly test_mode?: true;
  readonly allow_reassign?: true;
}

/** What was sent, so that the API's `errors[].path` can be placed beside its field. */
export interface Sent {
  /** The form's row number (1-based) of each `signers[i]`. */
  readonly rows: readonly number[];
  /** The name of each `fields[i]`. */
  readonly fieldNames: readonly string[];
}

/**
 * The create body for a filled form, or the form's own refusals by field id (nothing is
 * sent while there is one). Only fields of the chosen templates are assigned.
 */
export const bodyOf = (
  form: NewRequestForm,
  published: readonly ContractSummary[],
): { body: CreateBody; sent: Sent; errors: Map<string, string> } => {
  const errors = new Map<string, string>();
  if (form.contracts.length === 0) errors.set('contracts', 'Choose at least one contract template.');
  else if (form.contracts.length > LIMITS.contracts)
    errors.set('contracts', `Choose at most ${LIMITS.contracts} contract templates.`);
  else if (form.contracts.some((id) => !published.some((c) => c.id === id)))
    errors.set('contracts', 'Choose among the published templates listed.');
  const rows = rowNumbers(form.signers.length).filter((n) => {
    const s = form.signers[n - 1]!;
    return s.signerId !== '' || s.email !== '' || s.mobile !== '';
  });
  if (rows.length === 0) errors.set('signer_id_1', 'Enter at least one signer.');
  for (const n of rows)
    if (form.signers[n - 1]!.signerId === '')
      errors.set(`signer_id_${n}`, 'Enter the signer id (their e-mail address will do).');
  const order = form.inOrder && rows.length > 1;
  const signers = rows.map((n, i) => ({
    ...signerEntryOf(form.signers[n - 1]!),
    ...(order ? { order: i + 1 } : {}),
  }));
  const chosen = published.filter((c) => form.contracts.includes(c.id));
  const fields = fieldChoices(chosen).map((f, i) => {
    const row = form.assign[f.name] ?? 1;
    const signer = form.signers[row - 1];
    if (signer === undefined || signer.signerId === '')
      errors.set(`field_${i}`, `Signer ${row} is empty: choose a signer who is on this Request.`);
    return { name: f.name, assigned_to: signer?.signerId ?? '' };
  });
  const renderData = renderDataOf(form.renderData, errors);
  const cc = ccOf(form.cc);
  const subject = subjectOf(form.subject);
  const message = messageOf(form.message);
  const title = titleOf(form.title);
  const expiresAt = expiryOf(form.expiresAt, errors);
  const reminderDays = reminderDaysOf(form.reminderDays, errors);
  const body: CreateBody = {
    ...(title === null ? {} : { title }),
    contracts: [...form.contracts],
    signers,
    ...(fields.length === 0 ? {} : { fields }),
    ...(Object.keys(renderData).length === 0 ? {} : { render_data: renderData }),
    ...(subject === null ? {} : { subject }),
    ...(message === null ? {} : { message }),
    ...(cc.length === 0 ? {} : { cc }),
    ...(form.redirectUrl === '' ? {} : { redirect_url: form.redirectUrl }),
    ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
    ...(reminderDays === undefined ? {} : { reminder_interval_days: reminderDays }),
    ...(form.testMode ? { test_mode: true as const } : {}),
    ...reassignPart(form.allowReassign),
  };
  return { body, sent: { rows, fieldNames: fields.map((f) => f.name) }, errors };
};

/**
 * A signer as typed, as a `signers[]` entry takes it (and a draft's added signer, ADR
 * 3280): the address and number only when typed, the channels as ticked; no order.
 */
export const signerEntryOf = (s: SignerRow): Omit<CreateBody['signers'][number], 'order'> => {
  const contact = {
    ...(s.email === '' ? {} : { email: s.email }),
    ...(s.mobile === '' ? {} : { mobile_number: s.mobile }),
  };
  return {
    signer_id: s.signerId,
    ...(Object.keys(contact).length === 0 ? {} : { signer: contact }),
    send_to: { email: s.notifyEmail, mobile_number: s.notifySms },
  };
};
