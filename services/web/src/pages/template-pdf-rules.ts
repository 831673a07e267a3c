import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { ContractView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary } from '../layout.js';
import { fieldsText, nameWritten, parseFields } from '../template-text.js';
import { appPage, problemPage, segment } from './common.js';
import { rulesArea } from './template-pdf.js';

/**
 * Whether a draft PDF template's field rules are edited here (ADR 3670): every field is
 * named by a line the rules can hold.
 */
export const pdfRulesEditable = (c: ContractView): boolean =>
  c.state === 'draft' && c.type === 'pdf' && c.fields.every((f) => nameWritten(f.name));

const NOT_EDITABLE: ApiProblem = {
  type: 'about:blank',
  title: 'Not editable here',
  status: 409,
  code: 'not_editable',
  detail: "Only a draft PDF template's field rules are edited here.",
};

/** A draft PDF template's rules, one line per field, as its upload takes them. */
const rulesPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  c: ContractView,
  input: { rules: string; problem?: ApiProblem; errors?: ReadonlyMap<string, string> },
): void => {
  const here = `${deps.base}/templates/${c.id}`;
  const errors = new Map([...fieldErrors(input.problem), ...(input.errors ?? [])]);
  appPage(ctx, deps, visitor, {
    title: 'Edit field rules',
    section: 'templates',
    ...(input.problem ? { status: input.problem.status } : input.errors?.size ? { status: 422 } : {}),
    body: html` <p class="crumbs">
        <a href="${deps.base}/templates">Templates</a> › <a href="${here}">${c.name}</a>
      </p>
      <h1>Edit field rules</h1>
      <p>
        One line for each of the PDF's form fields, as they are now. Change a line, or remove it to keep the
        PDF's field as the file has it. The PDF stays as uploaded.
      </p>
      ${problemSummary(input.problem)}
      <form method="post" action="${here}/rules" class="panel" novalidate>
        ${csrfField(visitor.csrf)} ${rulesArea(input.rules, errors)}
        <button type="submit">Save the rules</button>
      </form>`,
  });
};

/**
 * `GET` and `POST /templates/:id/rules` (ADR 3670): a draft PDF template's field rules,
 * saved with `PATCH /v1.1/contracts/:id` `{ fields }` (ADR 3890): the API reads them
 * against the file it keeps, which is neither uploaded again nor read back.
 */
export const pdfRulesRoutes = (router: Router, deps: WebDeps): void => {
  /** The draft to edit, or undefined once a page has said why not. */
  const draftOf = async (ctx: Koa.Context, visitor: Visitor, id: string) => {
    const found = await visitor.api({
      method: 'GET',
      path: `/v1.1/contracts/${segment(id)}`,
      codec: ContractView,
    });
    if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'templates', found.left);
    if (!pdfRulesEditable(found.right)) return problemPage(ctx, deps, visitor, 'templates', NOT_EDITABLE);
    return found.right;
  };

  router.get('/templates/:id/rules', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    const c = visitor && (await draftOf(ctx, visitor, ctx.params.id!));
    if (visitor && c) rulesPage(ctx, deps, visitor, c, { rules: fieldsText(c.fields, 'pdf') });
  });

  router.post('/templates/:id/rules', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const { visitor } = form;
    const c = await draftOf(ctx, visitor, ctx.params.id!);
    if (c === undefined) return;
    const rules = form.fields.fields ?? '';
    const declared = parseFields(rules, 'pdf');
    if ('error' in declared)
      return rulesPage(ctx, deps, visitor, c, { rules, errors: new Map([['fields', declared.error]]) });
    // The rules alone: the API reads them against the file it keeps (ADR 3890).
    const saved = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/contracts/${c.id}`,
      body: { fields: declared.fields },
      codec: ContractView,
    });
    if (E.isLeft(saved)) return rulesPage(ctx, deps, visitor, c, { rules, problem: saved.left });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates/${c.id}?done=saved`);
  });
};
