import type Koa from 'koa';
import type { RequestView, SignerAuthenticationMethod } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { FormFields } from '../forms.js';
import { html, type Html } from '../html.js';
import { problemSummary } from '../layout.js';
import { AUTH_CHOICES, orderOf } from './request-draft-signers.js';
import {
  SETTINGS_LABELS,
  settingsIds,
  settingsPaths,
  type SettingsValues,
} from './request-signer-controls.js';

/**
 * **Signing settings** of a draft's signer (ADR 3290): their place in the signing order,
 * their check before signing and their language, changed with
 * `PATCH /v1.1/requests/:id/signers/:signer_id` (the route: `request-draft-signer-routes.ts`;
 * the disclosure in their row: `request-signer-settings-form.ts`). The form carries its own
 * Idempotency-Key and what the row showed (`was_*`): only what differs is sent, a control
 * emptied as null, and a form sent unchanged asks the API nothing.
 */

/** What the person typed and chose, kept as typed so a refused form shows it again. */
export interface SignerSettingsForm extends SettingsValues {
  readonly signerId: string;
  readonly idempotencyKey: string;
}

export const signerSettingsFormOf = (fields: FormFields): SignerSettingsForm => {
  const text = (name: string) => (fields[name] ?? '').trim();
  return {
    signerId: fields.signer_id ?? '',
    idempotencyKey: fields.idempotency_key ?? '',
    order: text('order'),
    method: text('authentication'),
    accessCode: text('access_code'),
    locale: text('locale'),
  };
};

/** The body of the PATCH: only what changed. */
export interface SignerSettingsBody {
  readonly order?: number | null;
  readonly authentication?: {
    readonly method: SignerAuthenticationMethod;
    readonly access_code?: string;
  } | null;
  readonly locale?: string | null;
}

/**
 * The check as chosen, against the one the row showed: `undefined` when unchanged. An
 * access code left empty keeps theirs (only its hash is kept, so any code typed is a
 * change); a code typed with another method is not sent.
 */
const authenticationOf = (
  form: SignerSettingsForm,
  was: string,
  errors: Map<string, string>,
): SignerSettingsBody['authentication'] => {
  if (form.method === '') return was === '' ? undefined : null;
  const method = AUTH_CHOICES.map(([m]) => m).find(
    (m): m is SignerAuthenticationMethod => m !== '' && m === form.method,
  );
  if (method === undefined) {
    errors.set('authentication.method', 'Choose one of the checks listed.');
    return undefined;
  }
  if (method === 'access_code' && form.accessCode !== '') {
    // Checked here too, so a short code is named without a round trip to the API.
    if (form.accessCode.length < 4 || form.accessCode.length > 32)
      errors.set('authentication.access_code', 'Enter 4 to 32 characters.');
    return { method, access_code: form.accessCode };
  }
  if (method === 'access_code' && was !== 'access_code')
    errors.set('authentication.access_code', 'Enter the access code you will give them: 4 to 32 characters.');
  return method === was ? undefined : { method };
};

/**
 * The PATCH body, what differs from what the row showed (`was_order`,
 * `was_authentication`, `was_locale`); or the form's own refusals by the API's paths
 * (nothing is sent while there is one). An empty body means nothing was changed.
 */
export const signerSettingsBodyOf = (
  form: SignerSettingsForm,
  fields: FormFields,
): { readonly body: SignerSettingsBody; readonly errors: ReadonlyMap<string, string> } => {
  const errors = new Map<string, string>();
  const wasOrder = fields.was_order ?? '';
  const wasLocale = fields.was_locale ?? '';
  const order = form.order === '' ? null : orderOf(form.order, errors);
  const authentication = authenticationOf(form, fields.was_authentication ?? '', errors);
  const body: SignerSettingsBody = {
    ...(order === undefined || String(order ?? '') === wasOrder ? {} : { order }),
    ...(authentication === undefined ? {} : { authentication }),
    ...(form.locale === wasLocale ? {} : { locale: form.locale === '' ? null : form.locale }),
  };
  return { body, errors };
};

/** Where the redirect after Signing settings says what it did. */
export const settingsDone = (same: boolean, signerId: string): string =>
  `?done=${same ? 'signer-settings-same' : 'signer-settings'}&signer_id=${encodeURIComponent(signerId)}`;

/**
 * What Signing settings did, from the redirect's `?done=` and `signer_id`, told only when
 * the draft shown lists that signer.
 */
export const settingsNotice = (ctx: Koa.Context, r: RequestView, problem: unknown): Html | '' => {
  const { done, signer_id: id } = ctx.query;
  if (problem || r.state !== 'draft' || typeof id !== 'string') return '';
  if (!r.signers.some((s) => s.signer_id === id)) return '';
  if (done === 'signer-settings')
    return html`<p class="success" role="status">${id}’s signing settings were saved.</p>`;
  if (done === 'signer-settings-same')
    return html`<p class="success" role="status">
      ${id}’s signing settings were already as given: nothing was changed.
    </p>`;
  return '';
};

/** A refused Signing settings, first on the page: errors beside a control of the signer's row link to it. */
export const settingsSummary = (refused: ApiProblem, form: SignerSettingsForm, r: RequestView): Html => {
  const i = r.signers.findIndex((s) => s.signer_id === form.signerId);
  const said = refused.detail ?? refused.title;
  const detail = `${said}${/[.!?]$/.test(said) ? '' : '.'} The signing settings of ${form.signerId} were not changed.`;
  return problemSummary({ ...refused, detail }, i < 0 ? {} : settingsPaths(settingsIds(`settings-${i}`)), {
    ...SETTINGS_LABELS,
  });
};

const SIGNER_ORDER = /^signers\[(\d+)\]\.order$/;

/**
 * A refusal of no form of its own (the send's, say), first on the page. The send's
 * `signers[i].order` (a part-ordered draft, ADR 3290) names the signer and links to their
 * order; anything else is listed by its path.
 */
export const pageProblemSummary = (refused: ApiProblem | undefined, r: RequestView): Html => {
  const errors = refused?.errors ?? [];
  const unordered = errors.flatMap((e) => {
    const i = Number(SIGNER_ORDER.exec(e.path)?.[1] ?? -1);
    const s = r.signers[i];
    return s === undefined ? [] : [{ i, signerId: s.signer_id, error: e }];
  });
  if (refused === undefined || unordered.length === 0) return problemSummary(refused);
  const rest = errors.filter((e) => !unordered.some((u) => u.error === e));
  const sentence = 'Every signer needs a signing order, or none does.';
  return html`<div class="errors" role="alert" tabindex="-1" id="problem">
    <h2>There is a problem</h2>
    <p>
      ${rest.length === 0 ? `The Request was not sent. ${sentence}` : `${refused.detail ?? refused.title} ${sentence}`}
    </p>
    <ul>
      ${unordered.map(
        (u) =>
          html`<li>
            <a href="#settings-${String(u.i)}-order">${u.signerId} has no signing order</a>, and another
            signer has one: give them one under Signing settings, or remove the others’.
          </li>`,
      )}
      ${rest.map((e) => html`<li>${e.path}: ${e.message}</li>`)}
    </ul>
  </div>`;
};
