import { problem, type SignerView, type UpdateRequestSignerBody } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, problemSummary, tick } from '../layout.js';
import { keyShownAgain } from './common.js';
import { contactFieldIds, contactFields } from './request-signer-contact-fields.js';

/**
 * **Correct contact** on a Request's page (ADR 3140): a signer of a sent Request who has
 * not signed gets another e-mail address, mobile number or channels, with
 * `PATCH /v1.1/requests/:id/signers/:signer_id`. The form carries its own Idempotency-Key,
 * as New link does, and what the page showed (`was_*`), so that the notice can say
 * whether the signer got a new link and whether it was sent.
 */

/** What the person typed and ticked, kept as typed so a refused form shows it again. */
export interface ContactForm {
  readonly signerId: string;
  readonly idempotencyKey: string;
  readonly email: string;
  readonly mobile: string;
  readonly byEmail: boolean;
  readonly bySms: boolean;
  readonly notify: boolean;
}

/** Whether a signer can be sent a message at all: a channel chosen, with its address. */
export const reachable = (s: SignerView): boolean =>
  (s.send_to.email && s.email !== null) || (s.send_to.mobile_number && s.mobile_number !== null);

const ticked = (fields: FormFields, name: string) => fields[name] === 'true';

export const contactFormOf = (fields: FormFields): ContactForm => ({
  signerId: fields.signer_id ?? '',
  idempotencyKey: fields.idempotency_key ?? '',
  email: (fields.email ?? '').trim(),
  mobile: (fields.mobile_number ?? '').trim(),
  byEmail: ticked(fields, 'send_to_email'),
  bySms: ticked(fields, 'send_to_sms'),
  notify: ticked(fields, 'notify'),
});

/** The address and number as typed, each left out when empty (the API keeps what it had). */
export const signerDetailsOf = (form: ContactForm): { email?: string; mobile_number?: string } => ({
  ...(form.email === '' ? {} : { email: form.email }),
  ...(form.mobile === '' ? {} : { mobile_number: form.mobile }),
});

/**
 * What the person changed of the Site record's details (ADR 3200): a new value sets one, a
 * field they cleared removes it (`null`), and one left as shown is left out.
 */
export const siteDetailsOf = (
  form: ContactForm,
  fields: FormFields,
): { email?: string | null; mobile_number?: string | null } => {
  const was = wasOf(fields);
  const detail = (typed: string, before: string) =>
    typed === before ? undefined : typed !== '' ? typed : null;
  const email = detail(form.email, was.email);
  const mobile = detail(form.mobile, was.mobile);
  return { ...(email !== undefined && { email }), ...(mobile !== undefined && { mobile_number: mobile }) };
};

/**
 * The PATCH body: the channels as ticked, and the address and number unless left empty
 * (the API cannot remove one; the same value again changes nothing).
 */
export const contactBodyOf = (form: ContactForm): UpdateRequestSignerBody => {
  const signer = signerDetailsOf(form);
  return {
    ...(Object.keys(signer).length === 0 ? {} : { signer }),
    send_to: { email: form.byEmail, mobile_number: form.bySms },
    notify: form.notify,
  };
};

/** A draft's correction posted after the Request was sent: nothing was changed. */
export const SENT_MEANWHILE: ApiProblem = problem({
  status: 409,
  code: 'invalid_state',
  title: 'Conflict',
  detail:
    'The Request was sent since the page was shown, with the details it showed: correct the signer again below.',
});

/** What the signer's row showed before the correction, as the form carried it. */
export const wasOf = (fields: FormFields) => ({
  email: fields.was_email ?? '',
  mobile: fields.was_mobile ?? '',
  byEmail: ticked(fields, 'was_send_to_email'),
  bySms: ticked(fields, 'was_send_to_sms'),
});

export const CONTACT_DONE: Record<string, string> = {
  contact: 'The signer’s contact details were corrected.',
  'contact-sent':
    'The signer’s contact details were corrected, and their Execution URL is being sent to them.',
  'contact-new-link':
    'The signer’s contact details were corrected. They have a new Execution URL (below); their older links no longer open.',
  'contact-new-link-sent':
    'The signer’s contact details were corrected. They have a new Execution URL (below), and it is being sent to them; their older links no longer open.',
  'contact-same': 'The signer’s contact details were already as given: nothing was changed or sent.',
  'draft-contact':
    'The signer’s contact details were corrected: this draft, and every other draft naming them, will be sent to them.',
  'draft-channels': 'This draft will send the signer their link by the channels now chosen.',
};

/**
 * Which notice (a key of `CONTACT_DONE`) tells truly what the API did: a new link only
 * when an address changed, sent only when asked and it is the signer's turn.
 */
export const contactOutcome = (
  fields: FormFields,
  form: ContactForm,
  after: SignerView | undefined,
): string => {
  if (after === undefined) return 'contact';
  const was = wasOf(fields);
  const newLink = (after.email ?? '') !== was.email || (after.mobile_number ?? '') !== was.mobile;
  const changed = newLink || after.send_to.email !== was.byEmail || after.send_to.mobile_number !== was.bySms;
  if (!changed) return 'contact-same';
  const sent = form.notify && after.turn && reachable(after);
  return `contact${newLink ? '-new-link' : ''}${sent ? '-sent' : ''}`;
};

const idsOf = (i: number): Record<string, string> => contactFieldIds('contact', i);

const LABELS: Record<string, string> = {
  'signer.email': 'E-mail address:',
  'signer.mobile_number': 'Mobile number:',
  send_to: 'Send their link by:',
  'send_to.email': 'Send their link by e-mail:',
  'send_to.mobile_number': 'Send their link by SMS:',
  notify: 'Send the link to them now:',
};

/** The refusal first on the page: errors beside a field of row `i` link to it, the others say their path. */
export const contactSummary = (refused: ApiProblem, signerId: string, i: number): Html => {
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} The contact details of ${signerId} were not corrected.`;
  return problemSummary({ ...refused, detail }, idsOf(i), LABELS);
};

/**
 * The disclosure in a pending signer's row: prefilled with their details, or with what was
 * typed (`typed`, open) when the API refused it, each refusal beside its field.
 */
export const contactForm = (input: {
  readonly action: string;
  readonly csrf: string;
  /** The signer as shown; `send_to` is a Request's, absent for the Site's signer record. */
  readonly signer: Pick<SignerView, 'signer_id' | 'email' | 'mobile_number'> & {
    readonly send_to?: SignerView['send_to'];
  };
  readonly i: number;
  /**
   * What the form offers (ADR 3200): `sent` (the default) the address, number, channels and
   * sending the link now; `draft` no sending (nothing is live yet); `site` the Site's
   * address and number only (the Signers page: channels are each Request's).
   */
  readonly variant?: 'sent' | 'draft' | 'site';
  /** More hidden fields the form carries back (the page's search, say). */
  readonly extra?: Readonly<Record<string, string>>;
  readonly typed?: ContactForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html => {
  const { signer: s, i, typed, problem } = input;
  const variant = input.variant ?? 'sent';
  const ids = idsOf(i);
  const errors = new Map(
    typed === undefined ? [] : (problem?.errors ?? []).map((e) => [ids[e.path] ?? '', e.message]),
  );
  const values: ContactForm = typed ?? {
    signerId: s.signer_id,
    idempotencyKey: '',
    email: s.email ?? '',
    mobile: s.mobile_number ?? '',
    byEmail: s.send_to?.email ?? false,
    bySms: s.send_to?.mobile_number ?? false,
    notify: true,
  };
  const key = keyShownAgain(typed?.idempotencyKey, problem);
  return html`<details class="contact" ${typed ? html` open` : ''}>
    <summary>Correct contact<span class="visually-hidden"> of ${s.signer_id}</span></summary>
    <form method="post" action="${input.action}" novalidate>
      ${csrfField(input.csrf)}
      <input type="hidden" name="signer_id" value="${s.signer_id}" />
      ${Object.entries(input.extra ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
      <input type="hidden" name="idempotency_key" value="${key}" />
      <input type="hidden" name="was_email" value="${s.email ?? ''}" />
      <input type="hidden" name="was_mobile" value="${s.mobile_number ?? ''}" />
      ${s.send_to?.email === true ? html`<input type="hidden" name="was_send_to_email" value="true" />` : ''}
      ${s.send_to?.mobile_number === true ? html`<input type="hidden" name="was_send_to_sms" value="true" />` : ''}
      ${contactFields({
        ids,
        values,
        errors,
        clearable: variant !== 'sent',
        ...(variant === 'site' ? {} : { channels: { email: 'E-mail', sms: 'SMS' } }),
      })}
      ${
        variant === 'sent'
          ? html`<div class="field">
              ${tick(ids.notify!, 'notify', 'Send the link to them now', values.notify, errors.get(ids.notify!))}
            </div>`
          : ''
      }
      <button type="submit" class="secondary" aria-label="Correct the contact details of ${s.signer_id}">
        Correct contact
      </button>
    </form>
  </details>`;
};
