import type { RequestView, SignerView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import { keyShownAgain } from './common.js';
import { languageName } from './locale-options.js';
import { AUTH_CHOICES } from './request-draft-signers.js';
import {
  CODE_HINT,
  ordersOf,
  settingsControls,
  settingsIds,
  settingsPaths,
  type SettingsValues,
} from './request-signer-controls.js';
import type { SignerSettingsForm } from './request-signer-settings.js';

/**
 * A draft signer's **Signing settings** in their row (ADR 3290): their order, check and
 * language as they are, and the disclosure that changes them, prefilled, or as typed
 * (open) when the API refused it, each refusal beside its control. Also what the Signers
 * of a part-ordered draft say.
 */

/** The signer's settings as the controls show them: '' for none. */
const shownOf = (s: SignerView): SettingsValues => ({
  order: s.order === null ? '' : String(s.order),
  method: s.authentication?.method ?? '',
  accessCode: '',
  locale: s.locale ?? '',
});

const checkName = (method: string): string =>
  method === '' ? 'none' : (AUTH_CHOICES.find(([m]) => m === method)?.[1] ?? method).toLowerCase();

/** The settings in words, above the disclosure. */
const settingsLine = (s: SignerView): Html =>
  html`<p class="hint settings-now">
    Order: ${s.order === null ? 'none' : String(s.order)}; check:
    ${checkName(s.authentication?.method ?? '')}; language:
    ${s.locale === null ? 'Site’s default' : languageName(s.locale)}
  </p>`;

/** The refusals beside their controls, by control id (several on one read one after another). */
const placedErrors = (refused: ApiProblem | undefined, i: number): ReadonlyMap<string, string> => {
  const paths = settingsPaths(settingsIds(`settings-${i}`));
  const placed = new Map<string, string>();
  for (const e of refused?.errors ?? []) {
    const id = paths[e.path];
    if (id !== undefined) placed.set(id, placed.has(id) ? `${placed.get(id)} ${e.message}` : e.message);
  }
  return placed;
};

/** The disclosure, on a draft only. */
export const signerSettingsForm = (input: {
  readonly action: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly signer: SignerView;
  readonly i: number;
  readonly typed?: SignerSettingsForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { request: r, signer: s, i, typed, problem } = input;
  if (r.state !== 'draft') return '';
  const ids = settingsIds(`settings-${i}`);
  const shown = shownOf(s);
  const others = ordersOf(r.signers.filter((o) => o.signer_id !== s.signer_id));
  // Open as typed when refused, or when the send was refused for want of their order.
  const open =
    typed !== undefined || (problem?.errors ?? []).some((e) => e.path === `signers[${String(i)}].order`);
  return html`${settingsLine(s)}
    <details class="settings" ${open ? html` open` : ''}>
      <summary>Signing settings<span class="visually-hidden"> of ${s.signer_id}</span></summary>
      <form method="post" action="${input.action}" novalidate>
        ${csrfField(input.csrf)}
        <input type="hidden" name="signer_id" value="${s.signer_id}" />
        <input
          type="hidden"
          name="idempotency_key"
          value="${keyShownAgain(typed?.idempotencyKey, problem)}"
        />
        <input type="hidden" name="was_order" value="${shown.order}" />
        <input type="hidden" name="was_authentication" value="${shown.method}" />
        <input type="hidden" name="was_locale" value="${shown.locale}" />
        ${settingsControls({
          ids,
          values: typed ?? shown,
          errors: typed === undefined ? new Map<string, string>() : placedErrors(problem, i),
          orderHint: `Lowest first, equal numbers in parallel; empty: no order. ${
            others.length === 0
              ? 'The other signers have none.'
              : `The other signers have ${others.join(', ')}.`
          }`,
          codeHint:
            shown.method === 'access_code'
              ? 'They have one: leave it empty to keep it, or type a new one (4 to 32 characters) and tell it to them yourself. It is kept hashed and never shown.'
              : CODE_HINT,
        })}
        <button type="submit" class="secondary" aria-label="Save the signing settings of ${s.signer_id}">
          Save signing settings
        </button>
      </form>
    </details>`;
};

/**
 * What a draft's Signers say when some signers have an order and others do not (ADR
 * 3290): who has none, and that the send refuses it.
 */
export const partOrderedHint = (r: RequestView): Html | '' => {
  if (r.state !== 'draft') return '';
  const without = r.signers.filter((s) => s.order === null).map((s) => s.signer_id);
  if (without.length === 0 || without.length === r.signers.length) return '';
  return html`<p class="notice" id="part-ordered">
    Some signers have a signing order and ${without.length === 1 ? 'this one has' : 'these have'} none:
    <strong>${without.join(', ')}</strong>. Give every signer an order, or remove them all, before sending
    (<strong>Signing settings</strong> in each signer’s row).
  </p>`;
};

/** What a draft's Signers say about Signing settings, and about a part-ordered draft. */
export const settingsHints = (r: RequestView): Html | '' =>
  r.state !== 'draft'
    ? ''
    : html`<p class="hint">
          <strong>Signing settings</strong> changes a signer’s place in the signing order, the check they pass
          before signing, and the language they are written to in.
        </p>
        ${partOrderedHint(r)}`;
