import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { AccountView, RequestView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { page, type Section } from '../layout.js';

/** A page of the signed-in application. */
export const appPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  input: { title: string; section: Section; body: Html; status?: number },
): void => {
  ctx.status = input.status ?? 200;
  ctx.body = page({
    base: deps.base,
    title: input.title,
    shell: visitor.shell,
    section: input.section,
    body: input.body,
  });
};

/** When the API refused what a page needs: its status and its words. */
export const problemPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  section: Section,
  problem: ApiProblem,
): void => {
  const title =
    problem.status === 404
      ? 'Not found'
      : problem.status >= 500
        ? 'Something went wrong'
        : 'This cannot be done';
  appPage(ctx, deps, visitor, {
    title,
    section,
    status: problem.status,
    body: html`<h1>${title}</h1>
      <div class="errors" role="alert"><p>${problem.detail ?? problem.title}</p></div>
      <p><a href="${deps.base}/${section === 'none' ? 'requests' : section}">Back</a></p>`,
  });
};

/** A page that needs a Site when the user is on none. */
export const noSitePage = (ctx: Koa.Context, deps: WebDeps, visitor: Visitor, section: Section): void =>
  appPage(ctx, deps, visitor, {
    title: 'No Site yet',
    section,
    body: html`<h1>No Site yet</h1>
      <p class="notice">
        You are not a member of any Site yet. Ask an administrator of your account to add you to one.
      </p>`,
  });

/** A path segment as the API takes it: the id the page address carried, never a path of its own. */
export const segment = (raw: string | undefined): string => encodeURIComponent(raw ?? '');

/**
 * The Idempotency-Key a form shown again carries: the one it was sent with, since refusals
 * are not kept with the key and a corrected form may send it again; a new one when it had
 * none or the API already used it for another body.
 */
export const keyShownAgain = (typedKey: string | undefined, problem: ApiProblem | undefined): string =>
  typedKey !== undefined && typedKey !== '' && problem?.code !== 'idempotency_key_reused'
    ? typedKey
    : randomUUID();

/**
 * What the form just posted did, from the `?done=` key its redirect names (one of
 * `messages`); nothing while the page shows a problem instead, or for an unknown key.
 */
export const doneNotice = (
  ctx: Koa.Context,
  messages: Record<string, string>,
  problem: unknown,
): Html | '' => {
  const key = ctx.query.done;
  return typeof key === 'string' && Object.hasOwn(messages, key) && !problem
    ? html`<p class="success" role="status">${messages[key]}</p>`
    : '';
};

/** Who administers the account, for its members to know whom to ask (ADR 3080). */
export const adminsOf = (account: AccountView): Html => {
  const { admins } = account;
  if (admins.length === 0)
    return html`<p>Your account has no enabled administrator: ask the service's operator.</p>`;
  const links = admins.map(
    (email, i) =>
      html`${i === 0 ? '' : i === admins.length - 1 ? ' and ' : ', '}<a href="mailto:${email}">${email}</a>`,
  );
  return html`<p>${admins.length === 1 ? 'Its administrator is' : 'Its administrators are'} ${links}.</p>`;
};

/** The longest search a list takes (a template's name, a Request's title), in UTF-16 code units as the API counts them. */
export const SEARCH_MAX = 255;

/**
 * A list's search as asked (`?q=`): trimmed (only spaces is no search), and cut to what the
 * API takes (`cut` then says so) without splitting a character in two.
 */
export const searchOf = (raw: unknown): { readonly q: string; readonly cut: boolean } => {
  const asked = typeof raw === 'string' ? raw.trim() : '';
  if (asked.length <= SEARCH_MAX) return { q: asked, cut: false };
  let q = '';
  for (const c of asked) {
    if (q.length + c.length > SEARCH_MAX) break;
    q += c;
  }
  return { q: q.trim(), cut: true };
};

/**
 * Whether a Request is still open to the sender's changes of its title, texts and settings:
 * while it is a draft or sent (a `PATCH` of an ended Request is a 409).
 */
export const isOpen = (r: Pick<RequestView, 'state'>): boolean => r.state === 'draft' || r.state === 'sent';
