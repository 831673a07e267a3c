import busboy from 'busboy';
import coBody from 'co-body';
import { ATTACHMENT_LIMITS, type Translator } from '@esign/contracts';
import type { AppContext } from '@esign/platform';
import type { ExecutionLink } from '../../../application/signing/verify-link.js';
import type { Upload } from '../../../domain/attachments.js';
import { embeddedPageOf, forgetEmbedded } from './embedded-pages.js';
import type { Refused } from './refusals.js';
import { FORM_LIMIT, linkOf, secure, type SigningRouteOptions } from './signer-http.js';

/** A signing form's fields and the files it brought (ADR 3920). */
interface ReadForm {
  readonly form: URLSearchParams;
  readonly uploads: readonly Upload[];
}

/** The most a multipart form may carry: its files and, beside them, its fields. */
const MULTIPART_LIMIT = ATTACHMENT_LIMITS.formBytes + 1024 * 1024;
const FIELD_BYTES = 600 * 1024;

/**
 * A multipart signing form (a page with attachment fields, ADR 3920): its fields, and each
 * file chosen for a field input `fN`, cut at the size limit and marked so (a file input left
 * empty sends a part with no file name: no file); `'too large'` past `MULTIPART_LIMIT` in
 * all, declared or streamed.
 */
const readMultipart = (ctx: AppContext): Promise<ReadForm | 'too large' | undefined> =>
  new Promise((resolve) => {
    if ((ctx.request.length ?? 0) > MULTIPART_LIMIT) return resolve('too large');
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        defParamCharset: 'utf8',
        limits: { files: 20, fileSize: ATTACHMENT_LIMITS.bytes, fields: 2000, fieldSize: FIELD_BYTES },
      });
    } catch {
      return resolve(undefined);
    }
    const form = new URLSearchParams();
    const uploads: Upload[] = [];
    let received = 0;
    let settled = false;
    const settle = (answer: ReadForm | 'too large' | undefined) => {
      if (settled) return;
      settled = true;
      ctx.req.unpipe(parser);
      resolve(answer);
    };
    ctx.req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MULTIPART_LIMIT) settle('too large');
    });
    parser.on('field', (name, value) => form.append(name, value));
    parser.on('file', (name, stream, info) => {
      const index = /^f(\d{1,4})$/.exec(name);
      if (index === null || info.filename === undefined || info.filename === '') {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        uploads.push({
          index: Number(index[1]),
          fileName: info.filename,
          bytes: Buffer.concat(chunks),
          truncated: (stream as unknown as { truncated?: boolean }).truncated === true,
        }),
      );
    });
    parser.on('error', () => settle(undefined));
    parser.on('close', () => settle({ form, uploads }));
    ctx.req.pipe(parser);
  });

/**
 * Reads a signer form (`POST /sign`, `/sign/decline`, `/sign/reassign`, `/sign/verify`, `/sign/code`): only
 * from our own pages, URL-encoded, or multipart when the page asks for files (ADR 3920), and
 * carrying a whole link; anything else is refused with its page, and the caller gets nothing.
 */
export const formAcceptor = (
  options: SigningRouteOptions,
  pages: {
    readonly languageFor: (ctx: AppContext) => Translator;
    readonly refuse: (ctx: AppContext, nonce: string, refusal: Refused) => void;
    readonly incompleteLink: (ctx: AppContext, nonce: string) => void;
  },
) => {
  const origin = new URL(options.publicBaseUrl).origin;

  /** Forms come only from our own pages: a browser says so (Sec-Fetch-Site), and no other origin may post. */
  const sameOrigin = (ctx: AppContext): boolean => {
    const site = ctx.get('sec-fetch-site');
    if (site !== '' && site !== 'same-origin') return false;
    const from = ctx.get('origin');
    return from === '' || from === 'null' || from === origin;
  };

  const readForm = async (ctx: AppContext): Promise<ReadForm | 'too large' | undefined> => {
    if (ctx.request.is('multipart/form-data') === 'multipart/form-data') return readMultipart(ctx);
    if (!ctx.request.is('application/x-www-form-urlencoded')) return undefined;
    const raw: unknown = await coBody.text(ctx.req, { limit: FORM_LIMIT, encoding: 'utf8' });
    return typeof raw === 'string' ? { form: new URLSearchParams(raw), uploads: [] } : undefined;
  };

  return async (
    ctx: AppContext,
    nonce: string,
  ): Promise<{ form: URLSearchParams; link: ExecutionLink; uploads: readonly Upload[] } | undefined> => {
    const { t } = pages.languageFor(ctx);
    if (!sameOrigin(ctx)) {
      pages.refuse(ctx, nonce, {
        status: 403,
        title: t('form.refused.title'),
        message: t('form.otherSite'),
        detail: t('form.openAndSubmit'),
      });
      return undefined;
    }
    const read = await readForm(ctx);
    if (read === 'too large') {
      pages.refuse(ctx, nonce, {
        status: 413,
        title: t('form.filesTooLarge.title'),
        message: t('form.filesTooLarge'),
      });
      return undefined;
    }
    if (read === undefined) {
      pages.refuse(ctx, nonce, {
        status: 415,
        title: t('error.unreadable'),
        message: t('form.submitFromPage'),
      });
      return undefined;
    }
    const { form, uploads } = read;
    const link = linkOf((n) => form.get(n) ?? undefined);
    // A form's link is in its body: an embedded session must be this signer's (ADR 2300).
    const embedded = embeddedPageOf(ctx);
    if (
      embedded !== undefined &&
      (link === undefined ||
        embedded.session.requestId !== link.requestId ||
        embedded.session.signerRef !== link.signerRef)
    ) {
      forgetEmbedded(ctx);
      secure(ctx, options, nonce, []);
    }
    if (link === undefined) {
      pages.incompleteLink(ctx, nonce);
      return undefined;
    }
    return { form, link, uploads };
  };
};
