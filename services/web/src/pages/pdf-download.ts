import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type Koa from 'koa';
import { problemOfStream, type ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import type { Section } from '../layout.js';
import { problemPage, segment } from './common.js';

/**
 * A file the API answers (an executed document, a PDF template's file, a signer's attachment
 * with `anyType`), passed on to the browser as it streams, under the API's `Content-Disposition`; a refusal is shown as the
 * page of `section` with the API's problem, or `fallback` when it sent none. The visitor
 * must hold an access token already: make an API call first. `inline`: shown in a frame of
 * our own pages instead of saved (the same file name), and only there.
 */
export const passFile = async (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  section: Section,
  path: string,
  fallback: Pick<ApiProblem, 'title' | 'code' | 'detail'>,
  options: {
    readonly inline?: boolean;
    /** A file of the type the API says (a signer's attachment, ADR 3920), not always a PDF. */
    readonly anyType?: boolean;
  } = {},
): Promise<void> => {
  const response = await deps.api.stream(path, visitor.accessToken());
  if (!response.ok || response.body === null)
    return problemPage(
      ctx,
      deps,
      visitor,
      section,
      await problemOfStream(response, { type: 'about:blank', status: response.status, ...fallback }),
    );
  ctx.type =
    options.anyType === true
      ? (response.headers.get('content-type') ?? 'application/octet-stream')
      : 'application/pdf';
  const disposition = response.headers.get('content-disposition') ?? 'attachment';
  if (options.inline === true) {
    ctx.set('Content-Disposition', disposition.replace(/^\s*attachment\b/i, 'inline'));
    // Framed by our own pages (a PDF template's, a completed Request's); every other answer
    // of the application keeps framing refused.
    ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'self'");
    ctx.set('X-Frame-Options', 'SAMEORIGIN');
  } else ctx.set('Content-Disposition', disposition);
  ctx.body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
};

/**
 * `GET <path>` saves the PDF of the resource `:id` names and `GET <path>/inline` shows it in
 * a frame of our pages: `read` is the API path of the resource (read first, for its refusal
 * and so the session has an access token) and `pdf` the path of its PDF.
 */
export const pdfRoutes = <A extends { readonly id: string | number }>(
  router: Router,
  deps: WebDeps,
  input: {
    readonly path: string;
    readonly section: Section;
    readonly read: (id: string) => string;
    readonly codec: t.Decoder<unknown, A>;
    readonly pdf: (found: A) => string;
    readonly fallback: Pick<ApiProblem, 'title' | 'code' | 'detail'>;
  },
): void => {
  const serve = async (ctx: Koa.Context, id: string | undefined, inline: boolean) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const found = await visitor.api({ method: 'GET', path: input.read(segment(id)), codec: input.codec });
    if (E.isLeft(found)) return problemPage(ctx, deps, visitor, input.section, found.left);
    await passFile(ctx, deps, visitor, input.section, input.pdf(found.right), input.fallback, { inline });
  };
  router.get(input.path, (ctx) => serve(ctx, ctx.params.id, false));
  router.get(`${input.path}/inline`, (ctx) => serve(ctx, ctx.params.id, true));
};
