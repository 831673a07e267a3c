import type Koa from 'koa';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, textField } from '../layout.js';
import { appPage } from './common.js';

/** Upload a PDF: its form fields are read by the API and listed on the template's page. */
export const pdfForm = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  input: { name?: string; problem?: ApiProblem; errors?: Map<string, string> },
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
        in.
      </p>
      ${problemSummary(input.problem, { name: 'name', pdf: 'pdf' })}
      <form
        method="post"
        action="${deps.base}/templates/pdf"
        enctype="multipart/form-data"
        class="panel"
        novalidate
      >
        ${csrfField(visitor.csrf)}
        ${textField({ id: 'name', name: 'name', label: 'Name', value: input.name ?? '', required: true, error: errors.get('name') })}
        <div class="field">
          <label for="pdf">PDF file</label>
          ${pdfError ? html`<p class="error" id="pdf-error">${pdfError}</p>` : ''}
          <input
            id="pdf"
            name="pdf"
            type="file"
            accept="application/pdf,.pdf"
            ${pdfError ? html` aria-invalid="true" aria-describedby="pdf-error"` : ''}
          />
        </div>
        <button type="submit">Upload</button>
        <span class="hint" role="status" data-busy-status></span>
      </form>`,
  });
};
