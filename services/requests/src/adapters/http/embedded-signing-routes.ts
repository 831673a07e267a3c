import type { AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { EmbeddedUseCases } from '../../application/embedded-signing.js';
import { markEmbedded, tellHost } from './embedded-pages.js';
import type { SignerPageKit } from './signer-authentication-routes.js';
import { messagePage } from './signing-pages.js';

/** What the embedded-URL pages say: kept together, to be translated in one place. */
export const EMBEDDED_TEXT = {
  used: {
    title: 'This signing link was already used',
    message: 'For your security, a signing link opens only once.',
    detail: 'Go back to the page you came from and start signing again: it opens a fresh link.',
  },
  expired: {
    title: 'This signing link has expired',
    message: 'Signing links that open inside another site work for 5 minutes.',
    detail: 'Go back to the page you came from and start signing again: it opens a fresh link.',
  },
  unknown: {
    title: 'This link is not valid',
    message: 'There is no document to sign at this link.',
    detail: 'Go back to the page you came from and start signing again.',
  },
} as const;

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
      const opening = await cases.openEmbeddedUrl(token);
      if (opening._tag === 'Opened' && opening.executionUrl !== undefined) {
        const next = new URL(opening.executionUrl);
        next.searchParams.set('embed', opening.session.id);
        ctx.status = 303;
        return ctx.redirect(`${next.pathname}${next.search}`);
      }
      if (opening._tag === 'Used' || opening._tag === 'Expired') {
        markEmbedded(ctx, opening.session, nonce);
        kit.allowOwnForms(ctx, nonce);
        const text = opening._tag === 'Used' ? EMBEDDED_TEXT.used : EMBEDDED_TEXT.expired;
        tellHost(ctx, {
          event: 'error',
          code: opening._tag === 'Used' ? 'link_used' : 'link_expired',
          message: text.title,
        });
        return kit.render(ctx, 410, messagePage({ nonce, ...text }));
      }
      return kit.render(ctx, 404, messagePage({ nonce, ...EMBEDDED_TEXT.unknown }));
    }),
  );
};
