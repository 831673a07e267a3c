import type Koa from 'koa';
import {
  csrfTokenOf,
  randomToken,
  readCookie,
  COOKIES,
  sameOrigin,
  sameToken,
  setCookie,
} from './cookies.js';
import { visitorOf, type Visitor, type WebDeps } from './context.js';
import { readForm, readUpload, type FormFields, type Upload } from './forms.js';

/** A refusal the error page shows with its status (a forged or stale form). */
export class WebError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const forged = () =>
  new WebError(
    403,
    'This form did not come from this page, or it is too old. Go back, reload the page and try again.',
  );

/** Refuses a state-changing request from another origin before its body is read. */
const checkOrigin = (ctx: Koa.Context, deps: WebDeps): void => {
  if (!sameOrigin(ctx, deps.publicOrigin)) throw forged();
};

/** The signed-in visitor and their form, or a 403 when the form's anti-forgery token is not theirs. */
export const posted = async (
  ctx: Koa.Context,
  deps: WebDeps,
): Promise<{ visitor: Visitor; fields: FormFields } | undefined> => {
  checkOrigin(ctx, deps);
  const fields = await readForm(ctx);
  const visitor = await visitorOf(ctx, deps);
  if (visitor === undefined) return undefined;
  if (!sameToken(fields._csrf, visitor.csrf)) throw forged();
  return { visitor, fields };
};

/** The same for a multipart form (a file upload). */
export const uploaded = async (
  ctx: Koa.Context,
  deps: WebDeps,
  fileLimitBytes: number,
  maxFields?: number,
): Promise<{ visitor: Visitor; upload: Upload } | undefined> => {
  checkOrigin(ctx, deps);
  const upload = await readUpload(ctx, fileLimitBytes, maxFields);
  const visitor = await visitorOf(ctx, deps);
  if (visitor === undefined) return undefined;
  if (!sameToken(upload.fields._csrf, visitor.csrf)) throw forged();
  return { visitor, upload };
};

/**
 * The anti-forgery token of a form shown to someone not signed in (sign-in, a forgotten
 * password): kept in the pre-session cookie, which `postedAnonymously` checks it against.
 */
export const preSessionToken = (ctx: Koa.Context, deps: WebDeps): string => {
  const pre = readCookie(ctx, COOKIES.preSession) ?? randomToken();
  setCookie(ctx, deps.cookies, COOKIES.preSession, pre);
  return pre;
};

/** Sign-in and sign-out: the pre-session cookie, or the session's own token. */
export const postedAnonymously = async (ctx: Koa.Context, deps: WebDeps): Promise<FormFields> => {
  checkOrigin(ctx, deps);
  const fields = await readForm(ctx);
  const session = readCookie(ctx, COOKIES.session);
  const expected = readCookie(ctx, COOKIES.preSession);
  const ok =
    sameToken(fields._csrf, expected) ||
    (session !== undefined && sameToken(fields._csrf, csrfTokenOf(session)));
  if (!ok) throw forged();
  return fields;
};
