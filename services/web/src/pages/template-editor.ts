import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { ContractView, problem } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, textField } from '../layout.js';
import { textArea } from '../text-area.js';
import {
  fieldsProblem,
  highlightTokens,
  parseFields,
  parseSample,
  previewDocument,
  sampleFor,
  fieldsText,
  writtenWhole,
  tokensOf,
} from '../template-text.js';
import { appPage, noSitePage, problemPage, segment } from './common.js';

/** An address that cannot name a template. */
const NO_SUCH: ApiProblem = problem({
  status: 404,
  code: 'not_found',
  title: 'Not found',
  detail: 'No such template.',
});

/**
 * Whether the editor can show a template whole: a draft HTML template whose every field
 * it writes back as it was (`writtenWhole`: all the API takes, ADR 3640, but for a choice
 * option or a name its lines cannot hold); any other is left to the API's `PUT`, so that
 * saving here cannot drop or change what it does not show.
 */
export const inEditor = (c: ContractView): boolean =>
  c.state === 'draft' && c.html !== null && c.fields.every(writtenWhole);

/** How the signer fields' lines are written (ADR 3640): the types, then one example of each addition. */
const FIELDS_HINT = html`One per line as <code>name: type</code>, the type one of text, checkbox, choice, date
  (the signer picks it), signature, date_signed (the day its signer signs, filled in), initials (the signer's
  initials, typed once beside their name), full_name (the name its signer types to sign, filled in) or
  attachment (a PDF, PNG or JPEG file the signer uploads). Then, as needed:
  <ul>
    <li><code>plan: choice [Basic | Pro]</code>: a choice's options</li>
    <li>
      <code>zip: text zip_code min 5 max 10</code>: a kind of value (email_address, numbers_only,
      phone_number, zip_code, letters_only, ssn, ein, bank_routing_number, uk_postcode, ca_postal_code, iban
      or vat_number), and the fewest and most characters
    </li>
    <li>
      <code>plate: text format AA-9999</code>: written character by character as the format says, 9 a digit, A
      a letter, * either, any other character as it is
    </li>
    <li>
      <code>start_on: date from today to today+90</code>: the earliest and latest dates (YYYY-MM-DD, or the
      day the signer signs, today, moved by whole days: today+90, today-7)
    </li>
    <li><code>note: text optional</code>: may be left empty (a text field, choice or date)</li>
    <li><code>terms: checkbox required</code>: must be ticked</li>
    <li><code>ssn: text ssn conceal</code>: shown as <code>***-**-6789</code> in the executed document</li>
    <li>
      <code>spouse: text if married</code>, <code>employer: text if not retired</code>,
      <code>seats: text if plan = Pro | Team</code>, <code>vat: text if company</code>: asked for only while a
      checkbox is ticked, or is not, a choice has one of those options, or a text or date field is filled in
      (<code>if not company</code>: left empty) (written last)
    </li>
    <li><code>contact: text if married or plan = Pro</code>: asked for while any of the conditions holds</li>
  </ul>`;

const STARTER =
  '<h1>Services agreement</h1>\n<p>This agreement is made with {{client_name}} of {{client_company}}.</p>';

interface EditorInput {
  /** The draft being edited (ADR 3240); absent: a new template. */
  editing?: { readonly id: number };
  name: string;
  html: string;
  fields: string;
  sample: string;
  problem?: ApiProblem;
  errors?: Map<string, string>;
}

/** The HTML template editor, with its live preview of the document a signer sees: a new template, or a draft's. */
const editorPage = (ctx: Koa.Context, deps: WebDeps, visitor: Visitor, input: EditorInput): void => {
  const { editing } = input;
  const title = editing ? 'Edit draft template' : 'New HTML template';
  const here = editing ? `${deps.base}/templates/${editing.id}` : undefined;
  const errors = new Map([...fieldErrors(input.problem), ...(input.errors ?? [])]);
  const fieldsError = fieldsProblem(input.fields, errors);
  const sample = parseSample(input.sample);
  const tokens = tokensOf(input.html);
  appPage(ctx, deps, visitor, {
    title,
    section: 'templates',
    ...(input.problem ? { status: input.problem.status } : input.errors?.size ? { status: 422 } : {}),
    body: html` <p class="crumbs">
        <a href="${deps.base}/templates">Templates</a
        >${here ? html` › <a href="${here}">${input.name}</a>` : ''}
      </p>
      <h1>${title}</h1>
      ${problemSummary(input.problem, { name: 'name', html: 'html' })}
      <form method="post" action="${here ? `${here}/edit` : `${deps.base}/templates`}" novalidate>
        ${csrfField(visitor.csrf)}
        ${textField({ id: 'name', name: 'name', label: 'Name', value: input.name, required: true, error: errors.get('name') })}
        <div class="editor">
          <div>
            ${textArea('html', 'HTML', input.html, 14, errors.get('html'), html`Write {{token}} where render_data fills in text, e.g. {{client_name}}.`)}
            ${textArea('fields', 'Signer fields (optional)', input.fields, 3, fieldsError, FIELDS_HINT)}
          </div>
          <div>
            <h2 id="tokens-heading">Tokens</h2>
            <ul class="tokens" id="tokens" aria-labelledby="tokens-heading">
              ${tokens.length === 0 ? html`<li>none</li>` : tokens.map((t) => html`<li>{{${t}}}</li>`)}
            </ul>
            <h2 id="highlight-heading">Source with tokens marked</h2>
            <pre class="highlight" id="highlight" aria-labelledby="highlight-heading">
${highlightTokens(input.html)}</pre>
            ${textArea('sample', 'Sample render_data (JSON)', input.sample, 5, 'error' in sample ? `The sample ${sample.error}.` : undefined)}
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
          <button type="submit" name="action" value="create">
            ${editing ? 'Save draft' : 'Create template'}
          </button>
          <button type="submit" name="action" value="preview" class="secondary">Preview</button>
          <span class="hint" role="status" data-busy-status></span>
        </div>
      </form>`,
  });
};

/**
 * `GET /templates/new` and `POST /templates`: write an HTML template, preview it, create
 * it; `/templates/:id/edit`: the same editor over a draft, saved with `PUT` (ADR 3240).
 */
export const templateEditorRoutes = (router: Router, deps: WebDeps): void => {
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

  // A draft's HTML, replaced whole (ADR 3240); a published template never changes.
  router.get('/templates/:id/edit', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const found = await visitor.api({
      method: 'GET',
      path: `/v1.1/contracts/${segment(ctx.params.id)}`,
      codec: ContractView,
    });
    if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'templates', found.left);
    const c = found.right;
    if (!inEditor(c) || c.html === null) {
      ctx.status = 303;
      return ctx.redirect(`${deps.base}/templates/${c.id}`);
    }
    editorPage(ctx, deps, visitor, {
      editing: { id: c.id },
      name: c.name,
      html: c.html,
      fields: fieldsText(c.fields),
      sample: sampleFor(c.tokens),
    });
  });

  router.post('/templates/:id/edit', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const { visitor, fields: f } = form;
    const id = Number(ctx.params.id);
    if (!Number.isSafeInteger(id) || id < 1) return problemPage(ctx, deps, visitor, 'templates', NO_SUCH);
    const input: EditorInput = {
      editing: { id },
      name: f.name ?? '',
      html: f.html ?? '',
      fields: f.fields ?? '',
      sample: f.sample ?? '',
    };
    if (f.action === 'preview') return editorPage(ctx, deps, visitor, input);
    const declared = parseFields(input.fields);
    if ('error' in declared)
      return editorPage(ctx, deps, visitor, { ...input, errors: new Map([['fields', declared.error]]) });
    const saved = await visitor.api({
      method: 'PUT',
      path: `/v1.1/contracts/${id}`,
      body: { type: 'html', name: input.name, html: input.html, fields: declared.fields },
      codec: ContractView,
    });
    if (E.isLeft(saved)) {
      if (saved.left.status === 404) return problemPage(ctx, deps, visitor, 'templates', saved.left);
      return editorPage(ctx, deps, visitor, { ...input, problem: saved.left });
    }
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates/${saved.right.id}?done=saved`);
  });
};
