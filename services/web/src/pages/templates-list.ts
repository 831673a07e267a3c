import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { ContractList } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { stateBadge, time } from '../layout.js';
import { appPage, doneNotice, noSitePage, problemPage, SEARCH_MAX, searchOf } from './common.js';
import { listFilterOf, listLink, listSwitch } from './template-archive.js';

/**
 * `/app/templates`: the Site's current contract templates, or its archived ones (ADR 3250),
 * a page at a time, searched by part of their name (`?q=`, in any case).
 */

const PER_PAGE = 50;
/**
 * What an empty list says: no current templates may mean they are all archived, which
 * one more call (a page of one) tells from none at all. An empty search says what it searched.
 */
const emptyNotice = async (
  visitor: Visitor,
  siteId: number,
  archived: boolean,
  q: string,
): Promise<Html | string> => {
  if (q) return html`No ${archived ? 'archived ' : ''}templates whose name contains “${q}”.`;
  if (archived) return 'No archived templates.';
  const others = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${siteId}/contracts?page=1&per_page=1&archived=true`,
    codec: ContractList,
  });
  const count = E.isRight(others) ? others.right.total_count : 0;
  return count === 0
    ? 'No templates yet.'
    : `No current templates: ${count === 1 ? 'the one template is' : `all ${count} templates are`} archived.`;
};

/** The search form, like the Signers page's; it keeps the list (current or archived) it searches. */
const searchForm = (deps: WebDeps, archived: boolean, q: string, cut: boolean): Html =>
  html`<form
    method="get"
    action="${deps.base}/templates"
    class="bar panel"
    role="search"
    aria-label="Search ${archived ? 'archived templates' : 'templates'}"
  >
    ${archived ? html`<input type="hidden" name="archived" value="true" />` : ''}
    <label for="q">Search</label>
    <input id="q" name="q" type="search" maxlength="${SEARCH_MAX}" value="${q}" aria-describedby="q-hint" />
    <button type="submit" class="secondary">Search</button>
    <p class="hint" id="q-hint">
      Part of a template’s name, in any
      case.${cut ? html` <strong>Your search was cut to its first ${SEARCH_MAX} characters.</strong>` : ''}
    </p>
  </form>`;

/** While a search is given: what the list is filtered by, and the way back to the whole list. */
const searchStatus = (deps: WebDeps, archived: boolean, q: string, total: number): Html | '' =>
  q
    ? html`<p role="status">
        ${total} ${archived ? 'archived ' : ''}${total === 1 ? 'template' : 'templates'} whose name contains
        “${q}”.
        <a href="${listLink(deps, archived)}">Clear the search</a>
      </p>`
    : '';

export const templateListPage = async (ctx: Koa.Context, deps: WebDeps, visitor: Visitor): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'templates');
  const pageNo = /^[1-9][0-9]{0,5}$/.test(String(ctx.query.page)) ? Number(ctx.query.page) : 1;
  // The current templates, or the archived ones (ADR 3250): never both in one list.
  const { archived } = listFilterOf(ctx);
  const { q, cut } = searchOf(ctx.query.q);
  const query = new URLSearchParams({
    page: String(pageNo),
    per_page: String(PER_PAGE),
    archived: String(archived),
    ...(q && { q }),
  });
  const list = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/contracts?${query.toString()}`,
    codec: ContractList,
  });
  if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'templates', list.left);
  const { data, total_count: total, has_more: more } = list.right;
  const empty = data.length === 0 ? await emptyNotice(visitor, site.id, archived, q) : '';
  const title = archived ? 'Archived contract templates' : 'Contract templates';
  appPage(ctx, deps, visitor, {
    title: q ? `${title} whose name contains “${q}”` : title,
    section: 'templates',
    body: html` ${archived ? html`<p class="crumbs"><a href="${deps.base}/templates">Templates</a></p>` : ''}
      <h1>${title} <span class="hint">on ${site.name}</span></h1>
      ${doneNotice(ctx, { deleted: 'The template was deleted.' }, undefined)}
      ${
        archived
          ? ''
          : html`<div class="actions">
              <a class="button" href="${deps.base}/templates/new">New HTML template</a>
              <a class="button secondary" href="${deps.base}/templates/new-pdf">Upload a PDF</a>
            </div>`
      }
      ${listSwitch(deps, archived)} ${searchForm(deps, archived, q, cut)}
      ${searchStatus(deps, archived, q, total)}
      ${
        data.length === 0
          ? html`<p class="notice">${empty}</p>`
          : html`<div class="table-wrap">
                <table>
                  <caption class="visually-hidden">
                    ${title} of ${site.name}${q ? html` whose name contains “${q}”` : ''}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Id</th>
                      <th scope="col">Name</th>
                      <th scope="col">Type</th>
                      <th scope="col">State</th>
                      <th scope="col" class="wide">${archived ? 'Archived' : 'Updated'}</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${data.map(
                      (c) =>
                        html`<tr>
                          <td>${c.id}</td>
                          <td><a href="${deps.base}/templates/${c.id}">${c.name}</a></td>
                          <td>${c.type.toUpperCase()}</td>
                          <td>${stateBadge(c.state)}</td>
                          <td class="wide">${time(archived ? c.archived_at : c.updated_at)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>
              <nav class="pager" aria-label="Pages">
                ${pageNo > 1 ? html`<a href="${listLink(deps, archived, pageNo - 1, q)}" rel="prev">Previous page</a>` : ''}
                ${more ? html`<a href="${listLink(deps, archived, pageNo + 1, q)}" rel="next">Next page</a>` : ''}
              </nav>`
      }`,
  });
};
