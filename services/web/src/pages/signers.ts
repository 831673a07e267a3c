import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { problem, SiteSignerList, SiteSignerView } from '@esign/contracts';
import { NoContent, type ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { csrfField, problemSummary, time } from '../layout.js';
import { dataTable } from '../table.js';
import { appPage, doneNotice, noSitePage, problemPage, segment } from './common.js';
import {
  contactForm,
  contactFormOf,
  contactSummary,
  siteDetailsOf,
  type ContactForm,
} from './request-signer-contact.js';

/**
 * `/app/signers`: the current Site's signers (ADR 3200), searched and a page at a time,
 * each with **Correct contact**, which `PUT`s the Site's record that every draft naming
 * the signer reads until it is sent.
 */

const PER_PAGE = 20;

const DONE: Record<string, string> = {
  corrected:
    'The signer’s contact details were corrected: every draft naming them will be sent to them; Requests already sent keep theirs.',
  'contact-same': 'The signer’s contact details were already as given: nothing was changed.',
  deleted: 'The signer was deleted. A Request that names the same signer_id later makes them again.',
};

/** The search as asked: trimmed, and what the API takes (1 to 255 characters), else none. */
const searchOf = (raw: unknown): string => {
  const q = typeof raw === 'string' ? raw.trim() : '';
  return q.length <= 255 ? q : '';
};

/** A form posted without the Site it was shown for (not one this page made). */
const NO_SITE_POSTED: ApiProblem = problem({
  status: 400,
  code: 'invalid_form',
  title: 'Bad request',
  detail: 'The form did not say which Site it was for: open the Signers page again.',
});

/** Delete a signer no Request names; the API keeps one that a Request names (409). */
const deleteForm = (deps: WebDeps, csrf: string, signerId: string, back: Readonly<Record<string, string>>) =>
  html`<form method="post" action="${deps.base}/signers/delete" class="inline">
    ${csrfField(csrf)}
    <input type="hidden" name="signer_id" value="${signerId}" />
    ${Object.entries(back).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
    <button type="submit" class="danger" aria-label="Delete the signer ${signerId}">Delete</button>
  </form>`;

const pageNoOf = (raw: unknown): number => (/^[1-9][0-9]{0,5}$/.test(String(raw)) ? Number(raw) : 1);

const listPage = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  refused?: {
    readonly problem: ApiProblem;
    /** The correction refused; absent for a refused deletion. */
    readonly form?: ContactForm;
    readonly q: string;
    readonly page: number;
  },
): Promise<void> => {
  const site = visitor.site;
  if (site === undefined) return noSitePage(ctx, deps, visitor, 'requests');
  const q = refused?.q ?? searchOf(ctx.query.q);
  const pageNo = refused?.page ?? pageNoOf(ctx.query.page);
  const query = new URLSearchParams({ page: String(pageNo), per_page: String(PER_PAGE), ...(q && { q }) });
  const list = await visitor.api({
    method: 'GET',
    path: `/v1.1/sites/${site.id}/signers?${query.toString()}`,
    codec: SiteSignerList,
  });
  if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'requests', list.left);
  const { data, total_count: total, has_more: more } = list.right;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const link = (p: number) =>
    `${deps.base}/signers?${new URLSearchParams({ ...(q && { q }), page: String(p) }).toString()}`;
  const form = refused?.form;
  const corrected = form && data.findIndex((s) => s.signer_id === form.signerId);
  appPage(ctx, deps, visitor, {
    title: 'Signers',
    section: 'requests',
    ...(refused ? { status: refused.problem.status } : {}),
    body: html` <p class="crumbs"><a href="${deps.base}/requests">Requests</a></p>
      <h1>Signers <span class="hint">on ${site.name}</span></h1>
      ${doneNotice(ctx, DONE, refused)}
      ${
        refused && form && corrected !== undefined && corrected >= 0
          ? contactSummary(refused.problem, form.signerId, corrected)
          : problemSummary(refused?.problem)
      }
      <p>
        Everyone a Request of this Site has named, by the <code>signer_id</code> your application gave them,
        with the details new Requests use. <strong>Correct contact</strong> changes them for every draft
        naming the signer; Requests already sent keep the details they were sent with. <strong>Delete</strong>
        forgets a signer no Request names.
      </p>
      <form
        method="get"
        action="${deps.base}/signers"
        class="bar panel"
        role="search"
        aria-label="Search signers"
      >
        <label for="q">Search</label>
        <input id="q" name="q" type="search" maxlength="255" value="${q}" aria-describedby="q-hint" />
        <button type="submit" class="secondary">Search</button>
        <p class="hint" id="q-hint">Part of a signer_id, an e-mail address or a mobile number.</p>
      </form>
      <p role="status">${total} ${total === 1 ? 'signer' : 'signers'}${q ? html` matching “${q}”` : ''}.</p>
      ${
        data.length === 0
          ? html`<p class="notice">
              ${q ? 'No signer matches this search.' : 'No signers yet: a Request’s signers appear here.'}
            </p>`
          : dataTable({
              caption: html`Signers of ${site.name}, by signer_id`,
              captionHidden: true,
              region: 'Signers',
              columns: [
                'Signer',
                'Contact',
                { label: 'Last changed', wide: true },
                { label: 'Delete', hidden: true },
              ],
              rows: data.map((s, i) => [
                html`<a
                  href="${deps.base}/requests?${new URLSearchParams({ signer_id: s.signer_id }).toString()}"
                  ><code>${s.signer_id}</code><span class="visually-hidden"> (Requests naming them)</span></a
                >`,
                html`${s.email ?? ''}${s.email && s.mobile_number ? html`<br />` : ''}${s.mobile_number ?? ''}
                ${contactForm({
                  action: `${deps.base}/signers/correct`,
                  csrf: visitor.csrf,
                  signer: s,
                  i,
                  variant: 'site',
                  typed: form?.signerId === s.signer_id ? form : undefined,
                  problem: refused?.problem,
                  extra: { q, page: String(pageNo), site_id: String(site.id) },
                })}`,
                time(s.updated_at),
                deleteForm(deps, visitor.csrf, s.signer_id, {
                  q,
                  page: String(pageNo),
                  site_id: String(site.id),
                }),
              ]),
            })
      }
      <nav class="pager" aria-label="Pages">
        ${pageNo > 1 ? html`<a href="${link(pageNo - 1)}" rel="prev">Previous page</a>` : ''}
        <span>Page ${pageNo} of ${pages}</span>
        ${more ? html`<a href="${link(pageNo + 1)}" rel="next">Next page</a>` : ''}
      </nav>`,
  });
};

/** The Site a form was shown for: another tab may have switched the current one since. */
const postedSite = (fields: Readonly<Record<string, string | undefined>>): string | undefined =>
  /^[1-9][0-9]{0,14}$/.test(fields.site_id ?? '') ? fields.site_id : undefined;

export const signerRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/signers', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor) await listPage(ctx, deps, visitor);
  });

  // The Site's record of one signer (ADR 3200): the page's search and page come back with it.
  router.post('/signers/correct', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const siteId = postedSite(fields);
    if (siteId === undefined) return problemPage(ctx, deps, visitor, 'requests', NO_SITE_POSTED);
    const form = contactFormOf(fields);
    const q = searchOf(fields.q);
    const page = pageNoOf(fields.page);
    const details = siteDetailsOf(form, fields);
    // Nothing changed: no call (an empty PUT would set again what the signer_id is).
    let same = Object.keys(details).length === 0;
    if (!same) {
      const done = await visitor.api({
        method: 'PUT',
        path: `/v1.1/sites/${siteId}/signers/${segment(form.signerId)}`,
        body: { signer: details },
        codec: SiteSignerView,
      });
      if (E.isLeft(done)) return listPage(ctx, deps, visitor, { problem: done.left, form, q, page });
      same =
        (done.right.email ?? '') === (fields.was_email ?? '') &&
        (done.right.mobile_number ?? '') === (fields.was_mobile ?? '');
    }
    const back = new URLSearchParams({
      done: same ? 'contact-same' : 'corrected',
      ...(q && { q }),
      page: String(page),
    });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/signers?${back.toString()}`);
  });

  // A signer no Request names (ADR 3200): a refusal (named, or gone) is shown on the page.
  router.post('/signers/delete', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const siteId = postedSite(fields);
    if (siteId === undefined) return problemPage(ctx, deps, visitor, 'requests', NO_SITE_POSTED);
    const q = searchOf(fields.q);
    const page = pageNoOf(fields.page);
    const done = await visitor.api({
      method: 'DELETE',
      path: `/v1.1/sites/${siteId}/signers/${segment(fields.signer_id ?? '')}`,
      codec: NoContent,
    });
    if (E.isLeft(done)) return listPage(ctx, deps, visitor, { problem: done.left, q, page });
    ctx.status = 303;
    ctx.redirect(
      `${deps.base}/signers?${new URLSearchParams({ done: 'deleted', ...(q && { q }), page: String(page) }).toString()}`,
    );
  });
};
