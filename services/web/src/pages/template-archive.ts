import type Koa from 'koa';
import type { ContractSummary, ContractView } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { csrfField, time } from '../layout.js';

/** What archiving and unarchiving did, by the `?done=` key of their redirect (ADR 3250). */
export const ARCHIVE_DONE: Record<string, string> = {
  archive: 'Archived: new Requests cannot use this template. Requests already made with it are unaffected.',
  unarchive: 'Unarchived: Requests can use this template again.',
};

/** The templates list's filter (ADR 3250): the current templates (the default) or the archived ones. */
export const listFilterOf = (ctx: Koa.Context): { readonly archived: boolean } => ({
  archived: ctx.query.archived === 'true',
});

/** The address of a page of the list (the first when none is given), keeping its filter and search. */
export const listLink = (deps: WebDeps, archived: boolean, pageNo?: number, q = ''): string => {
  const query = new URLSearchParams({
    ...(archived ? { archived: 'true' } : {}),
    ...(q && { q }),
    ...(pageNo === undefined ? {} : { page: String(pageNo) }),
  }).toString();
  return `${deps.base}/templates${query === '' ? '' : `?${query}`}`;
};

/** The list's heading part that tells the two lists apart, and links one to the other. */
export const listSwitch = (deps: WebDeps, archived: boolean): Html =>
  archived
    ? html`<p class="hint">
          Archived templates are left out of the templates list and New Request; Requests already made with
          them are unaffected. Open one to unarchive it.
        </p>
        <p><a href="${deps.base}/templates">Back to the current templates</a></p>`
    : html`<p><a href="${deps.base}/templates?archived=true">Archived templates</a></p>`;

/** The badge beside an archived template's name. */
export const archivedBadge = (c: ContractSummary): Html | '' =>
  c.archived_at === null ? '' : html` <span class="state state-archived">archived</span>`;

/** The facts-list entry of an archived template: when it was archived. */
export const archivedFact = (c: ContractSummary): Html | '' =>
  c.archived_at === null
    ? ''
    : html`<dt>Archived</dt>
        <dd>${time(c.archived_at)}</dd>`;

/**
 * An archived template's notice and its Unarchive action, first on its page: new Requests
 * cannot use it until it is unarchived. Just archived, the notice of what was done says so.
 */
export const unarchiveAction = (
  deps: WebDeps,
  visitor: Visitor,
  c: ContractView,
  justArchived: boolean,
): Html | '' =>
  c.state !== 'published' || c.archived_at === null
    ? ''
    : html`${
          justArchived
            ? ''
            : html`<p class="notice">
                This template is archived: new Requests cannot use it. Requests already made with it are
                unaffected.
              </p>`
        }
        <div class="actions">
          <form method="post" action="${deps.base}/templates/${c.id}/unarchive" class="inline">
            ${csrfField(visitor.csrf)} <button type="submit">Unarchive</button>
          </form>
        </div>`;

/**
 * A published template's Archive action, below its facts and less prominent than any other
 * (it takes the template out of the lists). A draft has none: it is deleted, not archived.
 */
export const archiveAction = (deps: WebDeps, visitor: Visitor, c: ContractView): Html | '' =>
  c.state !== 'published' || c.archived_at !== null
    ? ''
    : html`<div class="actions">
          <form method="post" action="${deps.base}/templates/${c.id}/archive" class="inline">
            ${csrfField(visitor.csrf)}
            <button type="submit" class="secondary" aria-describedby="archive-hint">Archive</button>
          </form>
        </div>
        <p class="hint" id="archive-hint">
          Archiving leaves this template out of the templates list and New Request. Requests already made with
          it are unaffected.
        </p>`;
