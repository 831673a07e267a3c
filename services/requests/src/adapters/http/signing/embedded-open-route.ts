import * as E from 'fp-ts/lib/Either.js';
import type { MessageKey, Translator } from '@esign/contracts';
import type { AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { EmbeddedUseCases } from '../../../application/embedded-signing.js';
import { markEmbedded, tellHost } from './embedded-pages.js';
import type { SignerPageKit } from './page-kit.js';
import { pageTranslator } from './page-language.js';
import { messagePage } from './message-page.js';

/** What the embedded-URL pages say, by the catalogues' keys (ADR 2320). */
const EMBEDDED_TEXT = {
  used: { title: 'embedded.used.title', message: 'embedded.used.message', detail: 'embedded.again.detail' },
  expired: {
    title: 'embedded.expired.title',
    message: 'embedded.expired.message',
    detail: 'embedded.again.detail',
  },
  unknown: {
    title: 'embedded.unknown.title',
    message: 'embedded.unknown.message',
    detail: 'embedded.unknown.detail',
  },
} as const satisfies Record<string, Record<'title' | 'message' | 'detail', MessageKey>>;

/** The page's words in the browser's language (an embedded URL names no signer until it opens). */
const textOf = (tr: Translator, which: keyof typeof EMBEDDED_TEXT) => {
  const keys = EMBEDDED_TEXT[which];
  return { tr, title: tr.t(keys.title), message: tr.t(keys.message), detail: tr.t(keys.detail) };
};

/**
 * `GET /sign/embedded?t=<token>` (ADR 2300): the first opening within 5 minutes claims the
 * URL and continues, inside its frame, to the signer's page in embedded mode; a second or
 * late opening shows why not (framed by the same origins, and telling the host `error`).
 */
export const mountEmbeddedOpenRoute = (
  router: Router<AppState>,
  cases: Pick<EmbeddedUseCases, 'openEmbeddedUrl'>,
  kit: SignerPageKit,
): void => {
  router.get(
    '/sign/embedded',
    kit.page(async (ctx, nonce) => {
      const token = typeof ctx.query.t === 'string' ? ctx.query.t : '';
      const opening = E.toUnion(await cases.openEmbeddedUrl(token)());
      if (opening._tag === 'Opened' && opening.executionUrl !== undefined) {
        const next = new URL(opening.executionUrl);
        next.searchParams.set('embed', opening.session.id);
        ctx.status = 303;
        return ctx.redirect(`${next.pathname}${next.search}`);
      }
      if (opening._tag === 'Used' || opening._tag === 'Expired') {
        markEmbedded(ctx, opening.session, nonce);
        kit.allowOwnForms(ctx, nonce);
        const text = textOf(
          pageTranslator(ctx.get('accept-language')),
          opening._tag === 'Used' ? 'used' : 'expired',
        );
        tellHost(ctx, {
          event: 'error',
          code: opening._tag === 'Used' ? 'link_used' : 'link_expired',
          message: text.title,
        });
        return kit.render(ctx, 410, messagePage({ nonce, ...text }));
      }
      return kit.render(
        ctx,
        404,
        messagePage({ nonce, ...textOf(pageTranslator(ctx.get('accept-language')), 'unknown') }),
      );
    }),
  );
};
