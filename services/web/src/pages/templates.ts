import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { ContractList, ContractView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted, uploaded } from '../guard.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, stateBadge, textField, time } from '../layout.js';
import {
  highlightTokens,
  parseFields,
  parseSample,
  previewDocument,
  sampleFor,
  sourceView,
  tokensOf,
} from '../template-text.js';
import { appPage, noSitePage, problemPage, segment } from './common.js';
import { pdfForm } from './template-pdf.js';

const STARTER =
  '<h1>Services agreement</h1>\n<p>This agreement is made with {{client_name}} of {{client_company}}.</p>';

interface EditorInput {
  name: string;
  html: string;
  fields: string;
  sample: string;
  problem?: ApiProblem;
  errors?: Map<string, string>;
}

const PDF_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

const editorPage = (ctx: Koa.Context, deps: WebDeps, visitor: Visitor, input: EditorInput): void => {
  const errors = new Map([...fieldErrors(input.problem), ...(input.errors ?? [])]);
  const fieldsError = [...errors].find(([path]) => path.startsWith('fields'))?.[1];
  const sample = parseSample(input.sample);
  const tokens = tokensOf(input.html);
  const area = (id: string, label: string, value: string, rows: number, error?: string, hint?: string) =>
    html` <div class="field">
      <label for="${id}">${label}</label>
      ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
      <p class="error" id="${id}-error">${error ?? ''}</p>
      <textarea
        id="${id}"
        name="${id}"
        rows="${rows}"
        spellcheck="false"
        aria-describedby="${hint ? `${id}-hint ` : ''}${id}-error"
        ${error ? html` aria-invalid="true"` : ''}
      >
${value}</textarea>
    </div>`;
  appPage(ctx, deps, visitor, {
    title: 'New HTML template',
    section: 'templates',
    ...(input.problem ? { status: input.problem.status } : input.errors?.size ? { status: 422 } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/templates">Templates</a></p>
      <h1>New HTML template</h1>
      ${problemSummary(input.problem, { name: 'name', html: 'html' })}
      <form method="post" action="${deps.base}/templates" novalidate>
        ${csrfField(visitor.csrf)}
        ${textField({ id: 'name', name: 'name', label: 'Name', value: input.name, required: true, error: errors.get('name') })}
        <div class="editor">
          <div>
            ${area('html', 'HTML', input.html, 14, errors.get('html'), 'Write {{token}} where render_data fills in text, e.g. {{client_name}}.')}
            ${area('fields', 'Signer fields (optional)', input.fields, 3, fieldsError, 'One per line as "name: type"; type is text, checkbox or signature.')}
          </div>
          <div>
            <h2 id="tokens-heading">Tokens</h2>
            <ul class="tokens" id="tokens" aria-labelledby="tokens-heading">
              ${tokens.length === 0 ? html`<li>none</li>` : tokens.map((t) => html`<li>{{${t}}}</li>`)}
            </ul>
            <h2 id="highlight-heading">Source with tokens marked</h2>
            <pre class="highlight" id="highlight" aria-labelledby="highlight-heading">
${highlightTokens(input.html)}</pre>
            ${area('sample', 'Sample render_data (JSON)', input.sample, 5, 'error' in sample ? `The sample ${sample.error}.` : undefined)}
            <p class="error" id="sample-error" role="status"></p>
            <h2 id="preview-heading">Preview</h2>
            <iframe
              class="preview"
              id="preview"
              title="Preview of the template with the sample data"
              sandbox=""
              srcdoc="${previewDocument(input.html, 'data' in sample ? sample.data : {})}"
            ></iframe>
          </div>
        </div>
        <div class="actions">
          <button type="submit" name="action" value="create">Create template</button>
          <button type="submit" name="action" value="preview" class="secondary">Preview</button>
          <span class="hint" role="status" data-busy-status></span>
        </div>
      </form>`,
  });
};

const listPage = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'templates');
  const pageNo = /^[1-9][0-9]{0,5}$/.test(String(ctx.query.page)) ? Number(ctx.query.page) : 1;
  const list = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/contracts?page=${pageNo}&per_page=50`,
    codec: ContractList,
  });
  if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'templates', list.left);
  appPage(ctx, deps, visitor, {
    title: 'Contract templates',
    section: 'templates',
    body: html` <h1>Contract templates <span class="hint">on ${site.name}</span></h1>
      <div class="actions">
        <a class="button" href="${deps.base}/templates/new">New HTML template</a>
        <a class="button secondary" href="${deps.base}/templates/new-pdf">Upload a PDF</a>
      </div>
      ${
        list.right.data.length === 0
          ? html`<p class="notice">No templates yet.</p>`
          : html`<div class="table-wrap">
                <table>
                  <caption class="visually-hidden">
                    Contract templates of ${site.name}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Id</th>
                      <th scope="col">Name</th>
                      <th scope="col">Type</th>
                      <th scope="col">State</th>
                      <th scope="col" class="wide">Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${list.right.data.map(
                      (c) =>
                        html`<tr>
                          <td>${c.id}</td>
                          <td><a href="${deps.base}/templates/${c.id}">${c.name}</a></td>
                          <td>${c.type.toUpperCase()}</td>
                          <td>${stateBadge(c.state)}</td>
                          <td class="wide">${time(c.updated_at)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>
              <nav class="pager" aria-label="Pages">
                ${pageNo > 1 ? html`<a href="${deps.base}/templates?page=${pageNo - 1}" rel="prev">Previous page</a>` : ''}
                ${list.right.has_more ? html`<a href="${deps.base}/templates?page=${pageNo + 1}" rel="next">Next page</a>` : ''}
              </nav>`
      }`,
  });
};

const DONE: Record<string, string> = {
  publish: 'Published: Requests can now use this template.',
  created: 'Created as a draft. Publish it to use it in Requests.',
};

const templatePage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  problem?: ApiProblem,
) => {
  const found = await visitor.api({
    method: 'GET',
    path: `/v1.1/contracts/${segment(id)}`,
    codec: ContractView,
  });
  if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'templates', found.left);
  const c = found.right;
  const done = typeof ctx.query.done === 'string' ? DONE[ctx.query.done] : undefined;
  appPage(ctx, deps, visitor, {
    title: c.name,
    section: 'templates',
    ...(problem ? { status: problem.status } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/templates">Templates</a></p>
      <h1>${c.name} ${stateBadge(c.state)}</h1>
      ${done && !problem ? html`<p class="success" role="status">${done}</p>` : ''} ${problemSummary(problem)}
      ${
        c.state === 'draft'
          ? html`<form method="post" action="${deps.base}/templates/${c.id}/publish" class="actions">
              ${csrfField(visitor.csrf)} <button type="submit">Publish</button>
            </form>`
          : ''
      }
      <dl class="facts">
        <dt>Template id</dt>
        <dd><code>${c.id}</code> (use <code>"contracts": [${c.id}]</code> when creating a Request)</dd>
        <dt>Type</dt>
        <dd>${c.type.toUpperCase()}</dd>
        <dt>Tokens</dt>
        <dd>${c.tokens.length === 0 ? 'none' : c.tokens.map((t) => html`<code>{{${t}}}</code> `)}</dd>
        <dt>Document</dt>
        <dd>${c.document.size_bytes} bytes, SHA-256 <code>${c.document.sha256.slice(0, 16)}…</code></dd>
        <dt>Created</dt>
        <dd>${time(c.created_at)}</dd>
        <dt>Published</dt>
        <dd>${c.published_at ? time(c.published_at) : 'not yet'}</dd>
      </dl>
      <h2>Signer fields</h2>
      ${
        c.fields.length === 0
          ? html`<p>None.</p>`
          : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Type</th>
                    <th scope="col">Options</th>
                  </tr>
                </thead>
                <tbody>
                  ${c.fields.map(
                    (f) =>
                      html`<tr>
                        <td><code>${f.name}</code></td>
                        <td>${f.type}</td>
                        <td>${(f.options ?? []).join(', ')}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      ${
        c.html !== null
          ? html`<h2>Source</h2>
              ${sourceView(c.html)}`
          : ''
      }`,
  });
};

export const templateRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/templates', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await listPage(ctx, deps, visitor);
  });

  router.get('/templates/new', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor)
      editorPage(ctx, deps, visitor, {
        name: '',
        html: STARTER,
        fields: '',
        sample: sampleFor(tokensOf(STARTER)),
      });
  });

  router.post('/templates', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const { visitor, fields: f } = form;
    const input: EditorInput = {
      name: f.name ?? '',
      html: f.html ?? '',
      fields: f.fields ?? '',
      sample: f.sample ?? '',
    };
    if (f.action === 'preview') return editorPage(ctx, deps, visitor, input);
    if (visitor.site === undefined) return noSitePage(ctx, deps, visitor, 'templates');
    const declared = parseFields(input.fields);
    if ('error' in declared)
      return editorPage(ctx, deps, visitor, { ...input, errors: new Map([['fields', declared.error]]) });
    const created = await visitor.api({
      method: 'POST',
      path: `/v1.1/sites/${visitor.site.id}/contracts`,
      body: {
        type: 'html',
        name: input.name,
        html: input.html,
        ...(declared.fields.length > 0 ? { fields: declared.fields } : {}),
      },
      codec: ContractView,
    });
    if (E.isLeft(created)) return editorPage(ctx, deps, visitor, { ...input, problem: created.left });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates/${created.right.id}?done=created`);
  });

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
    if (visitor.site === undefined) return noSitePage(ctx, deps, visitor, 'templates');
    if (upload.file === undefined || upload.file.bytes.length === 0)
      return pdfForm(ctx, deps, visitor, { name, errors: new Map([['pdf', 'Choose a PDF file.']]) });
    if (upload.file.truncated)
      return pdfForm(ctx, deps, visitor, { name, errors: new Map([['pdf', 'The file is too large.']]) });
    const created = await visitor.api({
      method: 'POST',
      path: `/v1.1/sites/${visitor.site.id}/contracts`,
      body: { type: 'pdf', name, pdf: upload.file.bytes.toString('base64') },
      codec: ContractView,
    });
    if (E.isLeft(created)) return pdfForm(ctx, deps, visitor, { name, problem: created.left });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates/${created.right.id}?done=created`);
  });

  router.get('/templates/:id', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await templatePage(ctx, deps, visitor, ctx.params.id!);
  });

  router.post('/templates/:id/publish', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const id = ctx.params.id!;
    const done = await form.visitor.api({
      method: 'POST',
      path: `/v1.1/contracts/${segment(id)}/publish`,
      codec: ContractView,
    });
    if (E.isLeft(done)) return templatePage(ctx, deps, form.visitor, id, done.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates/${done.right.id}?done=publish`);
  });
};
