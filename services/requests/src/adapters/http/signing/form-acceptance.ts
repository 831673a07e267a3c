import coBody from 'co-body';
import type { Translator } from '@esign/contracts';
import type { AppContext } from '@esign/platform';
import type { ExecutionLink } from '../../../application/signing/verify-link.js';
import { embeddedPageOf, forgetEmbedded } from './embedded-pages.js';
import type { Refused } from './refusals.js';
import { FORM_LIMIT, linkOf, secure, type SigningRouteOptions } from './signer-http.js';

/**
 * Reads a signer form (`POST /sign`, `/sign/decline`, `/sign/reassign`, `/sign/verify`, `/sign/code`): only
 * from our own pages, only URL-encoded, and carrying a whole link; anything else is refused
 * with its page, and the caller gets nothing.
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

  const readForm = async (ctx: AppContext): Promise<URLSearchParams | undefined> => {
    if (!ctx.request.is('application/x-www-form-urlencoded')) return undefined;
    const raw: unknown = await coBody.text(ctx.req, { limit: FORM_LIMIT, encoding: 'utf8' });
    return typeof raw === 'string' ? new URLSearchParams(raw) : undefined;
  };

  return async (
    ctx: AppContext,
    nonce: string,
  ): Promise<{ form: URLSearchParams; link: ExecutionLink } | undefined> => {
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
    const form = await readForm(ctx);
    if (form === undefined) {
      pages.refuse(ctx, nonce, {
        status: 415,
        title: t('error.unreadable'),
        message: t('form.submitFromPage'),
      });
      return undefined;
    }
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
    return { form, link };
  };
};
