import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { LIMITS, type RequestView, type SignerAuthenticationMethod, type SignerView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, problemSummary } from '../layout.js';
import { postButton } from '../table.js';
import { signerEntryOf, type SignerRow } from './request-new-input.js';

/**
 * A draft's signers added and removed on its page (ADR 3280): **Add a signer** sends one
 * entry of the create body's `signers[]` with `POST /v1.1/requests/:id/signers`, and each
 * row's **Remove** `DELETE /v1.1/requests/:id/signers/:signer_id` (the routes:
 * `request-draft-signer-routes.ts`; the form: `request-add-signer-form.ts`). Each form
 * carries its own Idempotency-Key, so a second click adds or removes nothing twice.
 */

/** What the person typed and chose, kept as typed so a refused form shows it again. */
export interface AddSignerForm {
  readonly idempotencyKey: string;
  /** The signer id, address, number and channels, as New Request reads a signer row. */
  readonly signer: SignerRow;
  readonly order: string;
  /** The check before signing ('' for none). */
  readonly method: string;
  readonly accessCode: string;
  /** Their language ('' for the Site's default). */
  readonly locale: string;
}

export const addSignerFormOf = (fields: FormFields): AddSignerForm => {
  const text = (name: string) => (fields[name] ?? '').trim();
  return {
    idempotencyKey: fields.idempotency_key ?? '',
    signer: {
      signerId: text('signer_id'),
      email: text('email'),
      mobile: text('mobile_number'),
      notifyEmail: fields.send_to_email === 'true',
      notifySms: fields.send_to_sms === 'true',
    },
    order: text('order'),
    method: text('authentication'),
    accessCode: text('access_code'),
    locale: text('locale'),
  };
};

/** The checks a signer may be asked for before signing (ADR 2001), as the form offers them. */
export const AUTH_CHOICES: readonly (readonly [SignerAuthenticationMethod | '', string])[] = [
  ['', 'None'],
  ['access_code', 'Access code you give them'],
  ['email_otp', 'One-time code by e-mail'],
  ['sms_otp', 'One-time code by SMS'],
];

/** The body of `POST /v1.1/requests/:id/signers`: one `signers[]` entry of the create body. */
export type AddSignerBody = ReturnType<typeof signerEntryOf> & {
  readonly order?: number;
  readonly authentication?: { readonly method: SignerAuthenticationMethod; readonly access_code?: string };
  readonly locale?: string;
};

/** A place in the signing order as typed: a whole number from 1 to the most signers; empty: none. */
export const orderOf = (text: string, errors: Map<string, string>): number | undefined => {
  if (text === '') return undefined;
  const n = /^\d{1,3}$/.test(text) ? Number(text) : 0;
  if (n < 1 || n > LIMITS.signers) {
    errors.set('order', `Enter a whole number from 1 to ${LIMITS.signers}, or leave it empty.`);
    return undefined;
  }
  return n;
};

/**
 * The body for a filled form, or the form's own refusals by the API's paths (nothing is
 * sent while there is one). The access code goes only with its method: a code left in
 * the field after choosing a one-time code is not sent.
 */
export const addSignerBodyOf = (
  form: AddSignerForm,
): { readonly body: AddSignerBody; readonly errors: ReadonlyMap<string, string> } => {
  const errors = new Map<string, string>();
  if (form.signer.signerId === '')
    errors.set('signer_id', 'Enter the signer id (their e-mail address will do).');
  const order = orderOf(form.order, errors);
  const method = AUTH_CHOICES.map(([m]) => m).find(
    (m): m is SignerAuthenticationMethod => m !== '' && m === form.method,
  );
  if (form.method !== '' && method === undefined)
    errors.set('authentication.method', 'Choose one of the checks listed.');
  const body: AddSignerBody = {
    ...signerEntryOf(form.signer),
    ...(order === undefined ? {} : { order }),
    ...(method === undefined
      ? {}
      : {
          authentication: {
            method,
            ...(method === 'access_code' && form.accessCode !== '' ? { access_code: form.accessCode } : {}),
          },
        }),
    ...(form.locale === '' ? {} : { locale: form.locale }),
  };
  return { body, errors };
};

/** The form's controls, by the paths of the API's field errors. */
export const ADD_SIGNER_IDS: Readonly<Record<string, string>> = {
  signer_id: 'add-signer-id',
  signer: 'add-signer-email',
  'signer.email': 'add-signer-email',
  'signer.mobile_number': 'add-signer-mobile',
  send_to: 'add-signer-by-email',
  'send_to.email': 'add-signer-by-email',
  'send_to.mobile_number': 'add-signer-by-sms',
  order: 'add-signer-order',
  authentication: 'add-signer-auth',
  'authentication.method': 'add-signer-auth',
  'authentication.access_code': 'add-signer-code',
  locale: 'add-signer-locale',
};

/** How the summary names each control it links to. */
const LABELS: Readonly<Record<string, string>> = {
  signer_id: 'Signer id:',
  signer: 'E-mail address:',
  'signer.email': 'E-mail address:',
  'signer.mobile_number': 'Mobile number:',
  send_to: 'Send by e-mail:',
  'send_to.email': 'Send by e-mail:',
  'send_to.mobile_number': 'Send by SMS:',
  order: 'Signing order:',
  authentication: 'Check before signing:',
  'authentication.method': 'Check before signing:',
  'authentication.access_code': 'Access code:',
  locale: 'Language:',
};

/** The refusals beside their controls, by control id (several on one read one after another). */
export const addSignerErrors = (refused: ApiProblem | undefined): ReadonlyMap<string, string> => {
  const placed = new Map<string, string>();
  for (const e of refused?.errors ?? []) {
    const id = ADD_SIGNER_IDS[e.path];
    if (id !== undefined) placed.set(id, placed.has(id) ? `${placed.get(id)} ${e.message}` : e.message);
  }
  return placed;
};

/** The problem's words as a sentence, and what was not done. */
const withOutcome = (refused: ApiProblem, outcome: string): ApiProblem => {
  const said = refused.detail ?? refused.title;
  return { ...refused, detail: `${said}${/[.!?]$/.test(said) ? '' : '.'} ${outcome}` };
};

/** The refusal of Add a signer, first on the page: errors beside a control link to it. */
export const addSignerSummary = (refused: ApiProblem): Html =>
  problemSummary(withOutcome(refused, 'No signer was added.'), { ...ADD_SIGNER_IDS }, { ...LABELS });

/** The refusal of a Remove (the API's `last_signer`, say), first on the page. */
export const removalSummary = (refused: ApiProblem, signerId: string): Html =>
  problemSummary(withOutcome(refused, `${signerId} was not removed.`));

/**
 * A draft signer's **Remove**: none while they are its only signer (a Request has at
 * least one; the API refuses it too).
 */
export const removeButton = (base: string, csrf: string, r: RequestView, s: SignerView): Html | '' =>
  r.state !== 'draft' || r.signers.length < 2
    ? ''
    : postButton({
        action: `${base}/requests/${r.id}/remove-signer`,
        csrf: csrfField(csrf),
        label: 'Remove',
        ariaLabel: `Remove ${s.signer_id} from this draft`,
        hidden: { signer_id: s.signer_id, idempotency_key: randomUUID() },
      });

/** What a draft's Signers say about Remove. */
export const removeHint = (r: RequestView): Html =>
  html`<p class="hint">
    ${
      r.signers.length > 1
        ? html`<strong>Remove</strong> takes a signer off this draft; the fields that were theirs have no
            signer until you choose one, and the Request cannot be sent before.`
        : 'A Request has at least one signer: to replace them, add the new signer first, then remove them.'
    }
  </p>`;

/** Where the redirect after a change of signers says what it did. */
export const signerDone = (done: 'signer-added' | 'signer-removed', signerId: string): string =>
  `?done=${done}&signer_id=${encodeURIComponent(signerId)}`;

const fieldsLink = html`<a href="#fields-title">Fields</a>`;

/**
 * What Add a signer or Remove did, from the redirect's `?done=` and `signer_id`, told only
 * when the draft shown agrees (a signer added is listed, one removed is not): a link of
 * anyone's making cannot claim a change that was not made. After a removal, the fields
 * with no signer, which the send refuses until they have one.
 */
export const signersNotice = (ctx: Koa.Context, r: RequestView, problem: unknown): Html | '' => {
  const { done, signer_id: id } = ctx.query;
  if (problem || r.state !== 'draft' || typeof id !== 'string' || id === '') return '';
  const listed = r.signers.some((s) => s.signer_id === id);
  if (done === 'signer-added' && listed)
    return html`<p class="success" role="status">
      ${id} was added to this draft: their Execution URL becomes live when the Request is sent.
      ${r.fields.length > 0 ? html`Choose the fields they fill under ${fieldsLink}.` : ''}
    </p>`;
  if (done !== 'signer-removed' || listed) return '';
  const unassigned = r.fields.filter((f) => f.assigned_to === null).map((f) => f.name);
  const one = unassigned.length === 1;
  return html`<p class="success" role="status">
    ${id} was removed from this draft.
    ${
      unassigned.length === 0
        ? ''
        : html`${one ? 'This field has' : 'These fields have'} no signer now:
            <strong>${unassigned.join(', ')}</strong>. Choose a signer for ${one ? 'it' : 'each'} under
            ${fieldsLink} before sending the Request.`
    }
  </p>`;
};
