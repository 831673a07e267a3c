import type Koa from 'koa';
import type { ContractSummary, FieldError } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { csrfField, textField, tick } from '../layout.js';
import { appPage } from './common.js';
import { contractBoxes } from './contract-boxes.js';
import {
  MAX_SIGNER_ROWS,
  type FieldChoice,
  type NewRequestForm,
  type SignerRow,
} from './request-new-input.js';
import { messageField } from './request-message.js';
import { REASSIGN_LABEL, reassignBox } from './request-reassign.js';
import { subjectField } from './request-subject.js';
import { titleField } from './request-title.js';
import { ccField, expiryAndReminderFields, renderDataField } from './request-values.js';

/** What the summary calls each field it links to. */
const labelOf = (id: string, choices: readonly FieldChoice[]): string => {
  const row = /_(\d+)$/.exec(id)?.[1];
  if (id.startsWith('signer_id_')) return `Signer ${row} id:`;
  if (id.startsWith('email_')) return `Signer ${row} e-mail address:`;
  if (id.startsWith('mobile_')) return `Signer ${row} mobile number:`;
  if (id.startsWith('field_')) return `Field ${choices[Number(row)]?.name ?? ''}:`;
  const fixed: Record<string, string> = {
    title: 'Title:',
    contracts: 'Contract templates:',
    render_data: 'Render data:',
    subject: 'E-mail subject:',
    message: 'Message to the signers:',
    cc: 'CC:',
    redirect_url: 'Redirect URL:',
    expires_at: 'Expires at:',
    reminder_interval_days: 'Remind every … days:',
    test_mode: 'Test mode:',
    allow_reassign: `${REASSIGN_LABEL}:`,
  };
  return fixed[id] ?? `${id}:`;
};

/** Every refusal first on the page: the ones beside a field link to it, the others say their path. */
const summary = (
  errors: ReadonlyMap<string, string>,
  elsewhere: readonly FieldError[],
  choices: readonly FieldChoice[],
  problem: ApiProblem | undefined,
): Html | '' =>
  errors.size === 0 && elsewhere.length === 0 && problem === undefined
    ? ''
    : html`<div class="errors" role="alert" tabindex="-1" id="problem">
        <h2>${problem?.status === 429 ? 'Please wait' : 'There is a problem'}</h2>
        ${problem ? html`<p>${problem.detail ?? problem.title}</p>` : ''}
        <p>No Request was created.${errors.size > 0 ? ' Correct the fields below.' : ''}</p>
        ${
          errors.size + elsewhere.length > 0
            ? html`<ul>
                ${[...errors].map(
                  ([id, message]) => html`<li><a href="#${id}">${labelOf(id, choices)} ${message}</a></li>`,
                )}
                ${elsewhere.map((e) => html`<li><code>${e.path}</code>: ${e.message}</li>`)}
              </ul>`
            : ''
        }
      </div>`;

/** A checkbox inside its label, its error above it; named as its id unless `name` says otherwise. */
export const checkbox = (
  id: string,
  label: string | Html,
  checked: boolean,
  error?: string,
  name: string = id,
): Html => html`<div class="field">${tick(id, name, label, checked, error)}</div>`;

const signerFields = (s: SignerRow, n: number, errors: ReadonlyMap<string, string>): Html =>
  html`<fieldset class="signer">
    <legend>Signer ${n}</legend>
    <div class="signer-grid">
      ${textField({
        id: `signer_id_${n}`,
        name: `signer_id_${n}`,
        label: 'Signer id',
        value: s.signerId,
        error: errors.get(`signer_id_${n}`),
      })}
      ${textField({
        id: `email_${n}`,
        name: `email_${n}`,
        label: 'E-mail address',
        type: 'email',
        value: s.email,
        error: errors.get(`email_${n}`),
      })}
      ${textField({
        id: `mobile_${n}`,
        name: `mobile_${n}`,
        label: 'Mobile number (US)',
        type: 'tel',
        value: s.mobile,
        error: errors.get(`mobile_${n}`),
      })}
    </div>
    <div class="bar">
      ${checkbox(`notify_email_${n}`, 'Notify by e-mail', s.notifyEmail)}
      ${checkbox(`notify_sms_${n}`, 'Notify by SMS', s.notifySms)}
    </div>
  </fieldset>`;

const fieldAssignment = (
  choices: readonly FieldChoice[],
  form: NewRequestForm,
  errors: ReadonlyMap<string, string>,
): Html | '' =>
  choices.length === 0
    ? ''
    : html`<h2>Who fills each field</h2>
        <p class="hint">Only the fields of the templates you choose are part of the Request.</p>
        ${choices.map((f, i) => {
          const error = errors.get(`field_${i}`);
          const row = form.assign[f.name] ?? 1;
          return html`<div class="field">
            <label for="field_${i}"
              >${f.name}
              <span class="hint">(${f.type}; in ${f.contracts.map((c) => c.name).join(', ')})</span></label
            >
            ${error ? html`<p class="error" id="field_${i}-error">${error}</p>` : ''}
            <select
              id="field_${i}"
              name="assign:${f.name}"
              ${error ? html` aria-describedby="field_${i}-error" aria-invalid="true"` : ''}
            >
              ${Array.from(
                { length: form.signers.length },
                (_, r) =>
                  html`<option value="${r + 1}" ${row === r + 1 ? html` selected` : ''}>
                    Signer ${r + 1}
                  </option>`,
              )}
            </select>
          </div>`;
        })}`;

const theForm = (
  deps: WebDeps,
  visitor: Visitor,
  contracts: readonly ContractSummary[],
  choices: readonly FieldChoice[],
  form: NewRequestForm,
  errors: ReadonlyMap<string, string>,
): Html =>
  html`<form method="post" action="${deps.base}/requests/new" class="panel" novalidate>
    ${csrfField(visitor.csrf)}
    <input type="hidden" name="idempotency_key" value="${form.idempotencyKey}" />
    ${titleField({ value: form.title, error: errors.get('title'), label: 'Title (optional)' })}
    ${contractBoxes(contracts, form.contracts, errors.get('contracts'))}
    <h2>Signers</h2>
    <p class="hint">
      The signer id is an e-mail address or a 10-digit US mobile number (the signer is then reached there), or
      any id of yours. Rows left empty are ignored.
    </p>
    <input type="hidden" name="signer_rows" value="${form.signers.length}" />
    ${form.signers.map((s, i) => signerFields(s, i + 1, errors))}
    ${
      form.signers.length < MAX_SIGNER_ROWS
        ? html`<p>
            <button
              type="submit"
              name="add_signer"
              value="1"
              class="secondary"
              formaction="${deps.base}/requests/new#signer_id_${form.signers.length + 1}"
            >
              Add a signer
            </button>
            <span class="hint">Keeps what you typed; nothing is created.</span>
          </p>`
        : ''
    }
    ${checkbox('in_order', 'With several signers, they sign one after another in row order', form.inOrder)}
    ${fieldAssignment(choices, form, errors)}
    <h2>Options</h2>
    ${subjectField({ value: form.subject, error: errors.get('subject'), label: 'E-mail subject (optional)' })}
    ${messageField({
      value: form.message,
      error: errors.get('message'),
      label: 'Message to the signers (optional)',
    })}
    ${renderDataField(form.renderData, errors.get('render_data'))} ${ccField(form.cc, errors.get('cc'))}
    ${textField({
      id: 'redirect_url',
      name: 'redirect_url',
      label: 'Redirect URL (optional)',
      type: 'url',
      hint: 'Where each signer goes after signing: an absolute https:// address.',
      value: form.redirectUrl,
      error: errors.get('redirect_url'),
    })}
    ${expiryAndReminderFields(form, errors)} ${reassignBox(form.allowReassign, errors.get('allow_reassign'))}
    ${checkbox(
      'test_mode',
      'Test mode: nothing is sent to the signers (the messages are kept on the Request’s page)',
      form.testMode,
      errors.get('test_mode'),
    )}
    ${checkbox(
      'send_now',
      'Send now: the Execution URLs go live and the signers are told (else it stays a draft)',
      form.sendNow,
    )}
    <button type="submit">Create Request</button>
    <span class="hint" role="status" data-busy-status></span>
  </form>`;

/** The New Request page: the form, with every refusal beside its field and what was typed kept. */
export const newRequestPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  input: {
    readonly siteName: string;
    readonly contracts: readonly ContractSummary[];
    readonly choices: readonly FieldChoice[];
    readonly form: NewRequestForm;
    readonly errors?: ReadonlyMap<string, string>;
    readonly elsewhere?: readonly FieldError[];
    readonly problem?: ApiProblem;
  },
): void => {
  const errors = input.errors ?? new Map<string, string>();
  const elsewhere = input.elsewhere ?? [];
  const failed = errors.size > 0 || elsewhere.length > 0;
  appPage(ctx, deps, visitor, {
    title: 'New Request',
    section: 'requests',
    status: input.problem?.status ?? (failed ? 422 : 200),
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>New Request <span class="hint">on ${input.siteName}</span></h1>
      ${
        input.contracts.length === 0
          ? html`<p class="notice" id="contracts">
              This Site has no published contract template yet, so no Request can be made. Create one and
              publish it on the <a href="${deps.base}/templates">Templates page</a> first. Archived templates
              are not offered: unarchive one to use it again.
            </p>`
          : html`<p>One Request to one or more signers, made from the templates you choose.</p>
              ${summary(errors, elsewhere, input.choices, input.problem)}
              ${theForm(deps, visitor, input.contracts, input.choices, input.form, errors)}`
      }`,
  });
};
