import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { ContractView } from '@esign/contracts';
import { NoContent } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { csrfField, pdfFrame, problemSummary, stateBadge, time } from '../layout.js';
import { fieldDetails, sourceView } from '../template-text.js';
import { appPage, doneNotice, problemPage, segment } from './common.js';
import {
  ARCHIVE_DONE,
  archiveAction,
  archivedBadge,
  archivedFact,
  unarchiveAction,
} from './template-archive.js';
import { copyAction, copyDone, templateCopyRoutes, type TemplatePage } from './template-copy.js';
import { copySiteSummary, copyToSiteAction, templateCopySiteRoutes } from './template-copy-site.js';
import { inEditor, templateEditorRoutes } from './template-editor.js';
import { pdfTemplateRoutes } from './template-pdf.js';
import { pdfRulesEditable, pdfRulesRoutes } from './template-pdf-rules.js';
import { requestsWithTemplate } from './requests-filter.js';
import { bulkSendsWithTemplate } from './bulk-sends-filter.js';
import { enteredWithTemplate, templateEnteredRoutes } from './template-entered.js';
import { templateHistory } from './template-history.js';
import { templateListPage } from './templates-list.js';

const DONE: Record<string, string> = {
  publish: 'Published: Requests can now use this template.',
  created: 'Created as a draft. Publish it to use it in Requests.',
  saved: 'The draft was saved. Publish it to use it in Requests.',
  ...ARCHIVE_DONE,
};

/**
 * A draft's actions: Publish, Edit (when the editor shows it whole), a PDF's Edit field
 * rules (ADR 3670) and Delete, the last
 * behind a disclosure so that one click does not delete (ADR 3240).
 */
const draftActions = (deps: WebDeps, visitor: Visitor, c: ContractView) => {
  const here = `${deps.base}/templates/${c.id}`;
  return html`<div class="actions">
      <form method="post" action="${here}/publish" class="inline">
        ${csrfField(visitor.csrf)} <button type="submit">Publish</button>
      </form>
      ${inEditor(c) ? html`<a class="button secondary" href="${here}/edit">Edit</a>` : ''}
      ${pdfRulesEditable(c) ? html`<a class="button secondary" href="${here}/rules">Edit field rules</a>` : ''}
    </div>
    ${
      c.html !== null && !inEditor(c)
        ? html`<p class="hint">
            A field's name or a choice's option holds a character the editor's lines cannot (":" in a name,
            "|" or a bracket in an option, a line break, or spaces at an end): replace it with
            <code>PUT /v1.1/contracts/${c.id}</code>.
          </p>`
        : ''
    }
    <details>
      <summary>Delete this draft…</summary>
      <form method="post" action="${here}/delete" class="inline">
        ${csrfField(visitor.csrf)}
        <button type="submit" class="danger">Delete draft template</button>
      </form>
    </details>`;
};

/**
 * A published template's Delete (ADR 3430), last on its page and behind a disclosure: it
 * cannot be undone, and archiving is the way to keep a template out of use.
 */
const deleteAction = (deps: WebDeps, visitor: Visitor, c: ContractView): Html | '' =>
  c.state !== 'published'
    ? ''
    : html`<details>
        <summary>Delete this template…</summary>
        <p class="hint" id="delete-hint">
          A deleted template leaves every list and New Request, and its page is gone. Requests already made
          with it are unaffected: they are sent and signed with it. This cannot be undone: to keep it, archive
          it instead.
        </p>
        <form method="post" action="${deps.base}/templates/${c.id}/delete" class="inline">
          ${csrfField(visitor.csrf)}
          <button type="submit" class="danger" aria-describedby="delete-hint">Delete template</button>
        </form>
      </details>`;

const templatePage: TemplatePage = async (ctx, deps, visitor, id, problem, typed) => {
  // The template and its History (ADR 3720), read at once.
  const [found, history] = await Promise.all([
    visitor.api({ method: 'GET', path: `/v1.1/contracts/${segment(id)}`, codec: ContractView }),
    templateHistory(visitor, id),
  ]);
  if (E.isLeft(found)) return problemPage(ctx, deps, visitor, 'templates', found.left);
  const c = found.right;
  appPage(ctx, deps, visitor, {
    title: c.name,
    section: 'templates',
    ...(problem ? { status: problem.status } : {}),
    body: html` <p class="crumbs">
        <a href="${deps.base}/templates">Templates</a>${
          c.archived_at === null ? '' : html` › <a href="${deps.base}/templates?archived=true">Archived</a>`
        }
      </p>
      <h1>${c.name} ${stateBadge(c.state)}${archivedBadge(c)}</h1>
      ${doneNotice(ctx, { ...DONE, ...copyDone(c, visitor.me.sites) }, problem)}
      ${problemSummary(problem, ...copySiteSummary(typed))}
      ${
        c.state === 'draft'
          ? draftActions(deps, visitor, c)
          : unarchiveAction(deps, visitor, c, ctx.query.done === 'archive' && !problem)
      }
      <dl class="facts">
        <dt>Template id</dt>
        <dd><code>${c.id}</code> (use <code>"contracts": [${c.id}]</code> when creating a Request)</dd>
        <dt>Type</dt>
        <dd>${c.type.toUpperCase()}</dd>
        <dt>Tokens</dt>
        <dd>${c.tokens.length === 0 ? 'none' : c.tokens.map((t) => html`<code>{{${t}}}</code> `)}</dd>
        <dt>Document</dt>
        <dd>
          ${c.document.size_bytes} bytes, SHA-256 <code>${c.document.sha256.slice(0, 16)}…</code>
          ${c.type === 'pdf' ? html`(<a href="${deps.base}/templates/${c.id}/document" download>Download the PDF</a>)` : ''}
        </dd>
        <dt>Created</dt>
        <dd>${time(c.created_at)}</dd>
        <dt>Published</dt>
        <dd>${c.published_at ? time(c.published_at) : 'not yet'}</dd>
        ${archivedFact(c)}
      </dl>
      ${requestsWithTemplate(deps, c)} ${bulkSendsWithTemplate(deps, c)} ${enteredWithTemplate(deps, c)}
      ${copyAction(deps, visitor, c, problem, typed)} ${archiveAction(deps, visitor, c)}
      ${copyToSiteAction(deps, visitor, c, problem, typed)} ${deleteAction(deps, visitor, c)}
      ${c.type === 'pdf' ? pdfFrame('The PDF', `${deps.base}/templates/${c.id}/document/inline`, `The PDF of ${c.name}`) : ''}
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
                    <th scope="col">Details</th>
                  </tr>
                </thead>
                <tbody>
                  ${c.fields.map(
                    (f) =>
                      html`<tr>
                        <td><code>${f.name}</code></td>
                        <td>${f.type}</td>
                        <td>${fieldDetails(f, c.fields)}</td>
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
      }
      ${history}`,
  });
};

export const templateRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/templates', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await templateListPage(ctx, deps, visitor);
  });

  // Before `/templates/:id`, which would take `new` and `new-pdf` for ids.
  templateEditorRoutes(router, deps);
  pdfTemplateRoutes(router, deps);
  pdfRulesRoutes(router, deps);
  // What signers entered in its fields, as one CSV file (ADR 3780).
  templateEnteredRoutes(router, deps);

  router.get('/templates/:id', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await templatePage(ctx, deps, visitor, ctx.params.id!);
  });

  // Publish a draft; archive or unarchive a published template (ADR 3250): each answers the template.
  for (const action of ['publish', 'archive', 'unarchive'] as const)
    router.post(`/templates/:id/${action}`, async (ctx) => {
      const form = await posted(ctx, deps);
      if (form === undefined) return;
      const id = ctx.params.id!;
      const done = await form.visitor.api({
        method: 'POST',
        path: `/v1.1/contracts/${segment(id)}/${action}`,
        codec: ContractView,
      });
      if (E.isLeft(done)) return templatePage(ctx, deps, form.visitor, id, done.left);
      ctx.status = 303;
      ctx.redirect(`${deps.base}/templates/${done.right.id}?done=${action}`);
    });

  // A draft copy of any template (ADR 3260), the way a published one is corrected.
  templateCopyRoutes(router, deps, templatePage);
  // …and into another Site of the visitor's, which becomes the current one.
  templateCopySiteRoutes(router, deps, templatePage);

  // A draft forgotten (ADR 3240), a published template deleted (ADR 3430); a refusal shows on its page.
  router.post('/templates/:id/delete', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const id = ctx.params.id!;
    const done = await form.visitor.api({
      method: 'DELETE',
      path: `/v1.1/contracts/${segment(id)}`,
      codec: NoContent,
    });
    if (E.isLeft(done)) return templatePage(ctx, deps, form.visitor, id, done.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/templates?done=deleted`);
  });
};
