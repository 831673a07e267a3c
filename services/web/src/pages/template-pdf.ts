import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { ContractView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { uploaded } from '../guard.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, fileField, problemSummary, textField } from '../layout.js';
import { textArea } from '../text-area.js';
import { fieldsProblem, parseFields } from '../template-text.js';
import { appPage, noSitePage } from './common.js';
import { pdfRoutes } from './pdf-download.js';

const PDF_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * How rules for the PDF's own fields are written (ADR 3670): the template editor's lines,
 * by the PDF's names.
 */
const RULES_HINT = html`One per line for any of the PDF's fields, by its name in the PDF, as in the HTML
  editor:
  <ul>
    <li><code>zip: text zip_code min 5</code>: a kind of value and the fewest characters</li>
    <li><code>plate: text format AA-9999</code>: a format, 9 a digit, A a letter, * either</li>
    <li><code>start_on: date from today to today+90</code>: a text field the signer fills with a date</li>
    <li><code>signed_on: date_signed</code>: a text field filled with the day its signer signs</li>
    <li><code>initials_1: initials</code>: a text field filled with its signer's initials</li>
    <li><code>printed_name: full_name</code>: a text field filled with the name its signer types to sign</li>
    <li><code>terms: checkbox required</code>, <code>plan: choice optional</code></li>
    <li><code>ssn: text ssn conceal</code>: shown as <code>***-**-6789</code> in the executed document</li>
    <li>
      <code>spouse: text if married</code>, <code>employer: text if not retired</code>,
      <code>seats: text if plan = Pro | Team</code>, <code>vat: text if company</code>: asked for only while a
      checkbox is ticked, or is not, a choice has one of those options, or a text or date field is filled in
      (<code>if not company</code>: left empty)
    </li>
    <li><code>contact: text if married or plan = Pro</code>: asked for while any of the conditions holds</li>
  </ul>`;

/**
 * The rules for a PDF's own fields as typed (ADR 3670), with the first of `errors` about
 * them (`fieldsProblem`): at the upload, and on a draft's Edit field rules.
 */
export const rulesArea = (rules: string, errors: ReadonlyMap<string, string>): Html => {
  return textArea('fields', 'Field rules (optional)', rules, 4, fieldsProblem(rules, errors), RULES_HINT);
};

/** Upload a PDF: its form fields are read by the API and listed on the template's page. */
export const pdfForm = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  input: { name?: string; rules?: string; problem?: ApiProblem; errors?: Map<string, string> },
): void => {
  const errors = new Map([...fieldErrors(input.problem), ...(input.errors ?? [])]);
  const pdfError = errors.get('pdf');
  appPage(ctx, deps, visitor, {
    title: 'Upload a PDF template',
    section: 'templates',
    ...(input.problem ? { status: input.problem.status } : input.errors?.size ? { status: 422 } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/templates">Templates</a></p>
      <h1>Upload a PDF template</h1>
      <p>
        The PDF's form fields (text boxes, check boxes, choices, signatures) become the fields signers fill
        in. Give any of them rules below.
      </p>
      ${problemSummary(input.problem, { name: 'name', pdf: 'pdf', fields: 'fields' })}
      <form
        method="post"
        action="${deps.base}/templates/pdf"
        enctype="multipart/form-data"
        class="panel"
        novalidate
      >
        ${csrfField(visitor.csrf)}
        ${textField({ id: 'name', name: 'name', label: 'Name', value: input.name ?? '', required: true, error: errors.get('name') })}
        ${fileField({ id: 'pdf', label: 'PDF file', accept: 'application/pdf,.pdf', error: pdfError })}
        ${rulesArea(input.rules ?? '', errors)}
        <button type="submit">Upload</button>
        <span class="hint" role="status" data-busy-status></span>
      </form>`,
  });
};

/**
 * `GET /templates/new-pdf` and `POST /templates/pdf`: upload a PDF template;
 * `GET /templates/:id/document`: download a PDF template's file as uploaded (ADR 3270).
 */
export const pdfTemplateRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/templates/new-pdf', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) pdfForm(ctx, deps, visitor, {});
  });

  router.post('/templates/pdf', async (ctx) => {
    // The API decides the real limit (the gateway's body limit); this only bounds memory.
    const form = await uploaded(ctx, deps, PDF_UPLOAD_LIMIT_BYTES);
    if (form === undefined) return;
    const { visitor, upload } = form;
    const name = upload.fields.name ?? '';
    const rules = upload.fields.fields ?? '';
    if (visitor.site === undefined) return noSitePage(ctx, deps, visitor, 'templates');
    const refused = (path: string, message: string) =>
      pdfForm(ctx, deps, visitor, { name, rules, errors: new Map([[path, message]]) });
    if (upload.file === undefined || upload.file.bytes.length === 0)
      return refused('pdf', 'Choose a PDF file.');
    if (upload.file.truncated) return refused('pdf', 'The file is too large.');
    const declared = parseFields(rules, 'pdf');
    if ('error' in declared) return refused('fields', declared.error);
    const created = await visitor.api({
      method: 'POST',
      path: `/v1.1/sites/${visitor.site.id}/contracts`,
      body: {
        type: 'pdf',
        name,
        pdf: upload.file.bytes.toString('base64'),
        ...(declared.fields.length > 0 && { fields: declared.fields }),
      },
      codec: ContractView,
    });
    if (E.isLeft(created)) return pdfForm(ctx, deps, visitor, { name, rules, problem: created.left });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates/${created.right.id}?done=created`);
  });

  // The file, saved (`/document`) or shown in the template's page (`/document/inline`).
  pdfRoutes(router, deps, {
    path: '/templates/:id/document',
    section: 'templates',
    read: (id) => `/v1.1/contracts/${id}`,
    codec: ContractView,
    pdf: (c) => `/v1.1/contracts/${c.id}/document`,
    fallback: {
      title: 'Not available',
      code: 'download_failed',
      detail: 'Only a PDF template has a file to download.',
    },
  });
};
