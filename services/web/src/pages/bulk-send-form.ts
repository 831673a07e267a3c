import type Koa from 'koa';
import { MAX_BULK_ROWS, type ContractSummary } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { CsvMapping, CsvProblem, CsvRow } from '../bulk-csv.js';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, fileField, problemSummary, textField } from '../layout.js';
import { dataTable } from '../table.js';
import { appPage } from './common.js';
import { csvFormat } from './bulk-csv-format.js';
import { contractBoxes } from './contract-boxes.js';
import { messageField } from './request-message.js';
import { REASSIGN_LABEL, reassignBox } from './request-reassign.js';
import { subjectField } from './request-subject.js';

/** How many rows the preview shows. */
export const PREVIEW_ROWS = 10;

/** What the person chose on the form, kept from one step to the next. */
export interface BulkChoice {
  readonly contracts: readonly number[];
  readonly redirectUrl: string;
  readonly send: boolean;
  readonly testMode: boolean;
  /** Each Request's signers may ask someone else to sign in their place (ADR 3560). */
  readonly allowReassign: boolean;
  /** Each Request's message to its signers (ADR 3380), as the API takes it; '' for none. */
  readonly message: string;
  /** Each Request's e-mail subject (ADR 3400), as the API takes it; '' for the usual one. */
  readonly subject: string;
}

export interface Preview {
  readonly csv: string;
  readonly fileName: string;
  readonly mapping: CsvMapping;
  /** The `Idempotency-Key` the send form carries: a second click replays the first bulk send. */
  readonly idempotencyKey: string;
}

const FIELD_IDS = {
  contracts: 'contracts',
  redirect_url: 'redirect_url',
  subject: 'subject',
  message: 'message',
  allow_reassign: 'allow_reassign',
  csv: 'csv',
  rows: 'csv',
};
const LABELS: Record<string, string> = {
  contracts: 'Contract templates:',
  redirect_url: 'Redirect URL:',
  subject: 'E-mail subject:',
  message: 'Message:',
  allow_reassign: `${REASSIGN_LABEL}:`,
  csv: 'CSV file:',
};

const TEMPLATE_PATH = /^contracts\[\d+\]$/;

/** The API's refusals by field id: one of the chosen templates (`contracts[i]`) beside the templates. */
const placedErrors = (problem: ApiProblem | undefined): Map<string, string> => {
  const placed = new Map<string, string>();
  for (const [path, message] of fieldErrors(problem)) {
    const id = TEMPLATE_PATH.test(path) ? 'contracts' : path;
    placed.set(id, placed.has(id) ? `${placed.get(id)} ${message}` : message);
  }
  return placed;
};

/** The summary's links: a refused template (`contracts[i]`, archived say) to the templates. */
const fieldIdsOf = (problem: ApiProblem): Record<string, string> => ({
  ...FIELD_IDS,
  ...Object.fromEntries(
    (problem.errors ?? []).filter((e) => TEMPLATE_PATH.test(e.path)).map((e) => [e.path, 'contracts']),
  ),
});

/** The form's own refusals, first on the page, each linking to its field. */
const formSummary = (errors: ReadonlyMap<string, string>): Html =>
  errors.size === 0
    ? html``
    : html`<div class="errors" role="alert" tabindex="-1" id="problem">
        <h2>There is a problem</h2>
        <p>Nothing was sent. Correct the fields below.</p>
        <ul>
          ${[...errors].map(([key, message]) => html`<li><a href="#${key}">${LABELS[key] ?? key} ${message}</a></li>`)}
        </ul>
      </div>`;

const contractChoice = (
  contracts: readonly ContractSummary[],
  choice: BulkChoice | undefined,
  error?: string,
) =>
  contracts.length === 0
    ? html`<p class="notice" id="contracts">
        This Site has no published contract template yet. Publish one on the Templates page first. Archived
        templates are not offered: unarchive one to use it again.
      </p>`
    : contractBoxes(contracts, choice?.contracts ?? [], error);

const checkbox = (id: string, label: string, checked: boolean | undefined) =>
  html`<div class="field">
    <label
      ><input type="checkbox" id="${id}" name="${id}" value="true" ${checked ? html` checked` : ''} />
      ${label}</label
    >
  </div>`;

const uploadForm = (
  deps: WebDeps,
  visitor: Visitor,
  contracts: readonly ContractSummary[],
  choice: BulkChoice | undefined,
  errors: ReadonlyMap<string, string>,
): Html => {
  const csvError = errors.get('csv');
  return html`<form
    method="post"
    action="${deps.base}/bulk-sends/preview"
    enctype="multipart/form-data"
    class="panel"
    novalidate
  >
    ${csrfField(visitor.csrf)} ${contractChoice(contracts, choice, errors.get('contracts'))}
    ${textField({
      id: 'redirect_url',
      name: 'redirect_url',
      label: 'Redirect URL (optional)',
      hint: 'Where each signer goes after signing: an absolute https:// address.',
      value: choice?.redirectUrl ?? '',
      error: errors.get('redirect_url'),
    })}
    ${subjectField({ value: choice?.subject ?? '', error: errors.get('subject'), label: 'E-mail subject (optional)' })}
    ${messageField({
      value: choice?.message ?? '',
      error: errors.get('message'),
      label: 'Message to the signers (optional)',
    })}
    ${checkbox('send', 'Send each one as soon as it is made', choice?.send ?? true)}
    ${checkbox('test_mode', 'Test mode: nothing is sent to the signers', choice?.testMode)}
    ${reassignBox(choice?.allowReassign ?? false, errors.get('allow_reassign'))}
    ${fileField({
      id: 'csv',
      label: 'CSV file',
      accept: 'text/csv,.csv',
      hint: `Up to ${MAX_BULK_ROWS} rows; see the format below.`,
      error: csvError,
    })}
    <button type="submit">Preview</button>
    <span class="hint" role="status" data-busy-status></span>
  </form>`;
};

const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

const where = (p: CsvProblem): string =>
  [
    p.row === undefined ? '' : `rows[${p.row}]`,
    p.line === undefined ? '' : `line ${p.line}`,
    p.column === undefined ? '' : `column ${p.column}`,
  ]
    .filter((s) => s !== '')
    .join(', ') || 'the file';

const cellsOf = (row: CsvRow): Html[] => [
  html`${row.signers.length === 0 ? html`<span class="hint">none</span>` : row.signers.map((s) => (s.signer ? `${s.signer_id} <${s.signer.email}>` : s.signer_id)).join(', ')}`,
  html`${Object.entries(row.render_data ?? {}).map(([k, v]) => html`<code>${k}</code> = ${v}<br />`)}`,
  html`${(row.fields ?? []).map((f) => html`<code>${f.name}</code> = ${f.default_value}<br />`)}`,
];

const previewSection = (deps: WebDeps, visitor: Visitor, choice: BulkChoice, preview: Preview): Html => {
  const { mapping } = preview;
  const rowProblems = (i: number) =>
    mapping.problems.filter((p) => p.row === i).map((p) => html`${p.message}<br />`);
  const shown = mapping.rows.slice(0, PREVIEW_ROWS);
  // A Title column (ADR 3390) only when a row shown has one.
  const titled = shown.some((row) => row.title !== undefined);
  return html`<section aria-labelledby="preview-heading">
    <h2 id="preview-heading">Preview of ${preview.fileName}</h2>
    ${
      choice.subject === ''
        ? ''
        : html`<p>Each Request’s e-mail subject: <strong id="subject-text">${choice.subject}</strong></p>`
    }
    ${
      choice.message === ''
        ? ''
        : html`<p>Each Request’s message to its signers:</p>
            <div class="signer-message" id="message-text">${choice.message}</div>`
    }
    <p role="status">
      ${counted(mapping.rows.length, 'row')};
      ${mapping.problems.length === 0 ? 'no problems' : counted(mapping.problems.length, 'problem')} found.
    </p>
    ${
      mapping.problems.length === 0
        ? ''
        : dataTable({
            caption: mapping.blocked
              ? 'Problems: fix the file and preview it again'
              : 'Problems: these rows will fail on their own, the others are made',
            region: 'Problems',
            columns: ['Where', 'Problem'],
            rows: mapping.problems.map((p) => [where(p), p.message]),
          })
    }
    ${dataTable({
      caption: `The first ${shown.length} rows as the API receives them`,
      region: 'First rows',
      columns: ['Row', ...(titled ? ['Title'] : []), 'Signers', 'render_data', 'Field values', 'Problems'],
      rows: shown.map((row, i) => [
        html`<code>rows[${i}]</code> <span class="hint">line ${i + 2}</span>`,
        ...(titled ? [row.title ?? html`<span class="hint">none</span>`] : []),
        ...cellsOf(row),
        html`${rowProblems(i)}`,
      ]),
    })}
    ${
      mapping.blocked
        ? ''
        : html`<form method="post" action="${deps.base}/bulk-sends" class="panel">
            ${csrfField(visitor.csrf)}
            <input type="hidden" name="idempotency_key" value="${preview.idempotencyKey}" />
            <input type="hidden" name="contracts" value="${choice.contracts.join(',')}" />
            <input type="hidden" name="redirect_url" value="${choice.redirectUrl}" />
            <input type="hidden" name="send" value="${String(choice.send)}" />
            <input type="hidden" name="test_mode" value="${String(choice.testMode)}" />
            <input type="hidden" name="allow_reassign" value="${String(choice.allowReassign)}" />
            <input type="hidden" name="subject" value="${choice.subject}" />
            <input type="hidden" name="message" value="${choice.message}" />
            <input type="hidden" name="file_name" value="${preview.fileName}" />
            <input type="hidden" name="csv" value="${preview.csv}" />
            <button type="submit">Send ${counted(mapping.rows.length, 'row')}</button>
            <span class="hint" role="status" data-busy-status></span>
          </form>`
    }
  </section>`;
};

/** The bulk-send page: the form, and after an upload its preview and the send button. */
export const bulkSendPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  input: {
    readonly siteName: string;
    readonly contracts: readonly ContractSummary[];
    readonly choice?: BulkChoice;
    readonly preview?: Preview;
    readonly errors?: ReadonlyMap<string, string>;
    readonly problem?: ApiProblem;
  },
): void => {
  const errors = new Map([...placedErrors(input.problem), ...(input.errors ?? [])]);
  const blocked = input.preview?.mapping.blocked === true;
  if (blocked && !errors.has('csv')) errors.set('csv', 'The file has problems: see the preview below.');
  const status = input.problem?.status ?? (errors.size > 0 ? 422 : 200);
  appPage(ctx, deps, visitor, {
    title: 'Bulk send from a CSV file',
    section: 'requests',
    status,
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>Bulk send from a CSV file <span class="hint">on ${input.siteName}</span></h1>
      <p>One Request per row of the file, made (and sent) in the background. Preview the file first.</p>
      ${input.problem === undefined ? formSummary(errors) : problemSummary(input.problem, fieldIdsOf(input.problem))}
      ${uploadForm(deps, visitor, input.contracts, input.choice, errors)} ${csvFormat}
      ${input.preview && input.choice ? previewSection(deps, visitor, input.choice, input.preview) : ''}`,
  });
};
