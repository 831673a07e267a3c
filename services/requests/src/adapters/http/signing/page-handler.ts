import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { Translator } from '@esign/contracts';
import type { AppContext } from '@esign/platform';
import type { EmbeddedUseCases } from '../../../application/embedded-signing.js';
import { embeddedPageOf, markEmbedded, withEmbeddedScript } from './embedded-pages.js';
import { messagePage } from './message-page.js';
import { one, secure, type SigningRouteOptions } from './signer-http.js';

/**
 * How every signer page is answered: a fresh nonce and the security headers first, the
 * embedded session its URL continues (ADR 2300), and an HTML page for whatever goes wrong.
 * A signer's browser gets a page, never the problem+json of the service's edge.
 */
export const pageHandler = (
  cases: Pick<EmbeddedUseCases, 'embeddedContext'>,
  options: SigningRouteOptions,
  browserLanguage: (ctx: AppContext) => Translator,
) => {
  const render = (ctx: AppContext, status: number, body: string) => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    const embedded = embeddedPageOf(ctx);
    ctx.body = embedded === undefined ? body : withEmbeddedScript(body, embedded);
  };

  /** `embed=<session>` on a signer page's URL: it continues an opened embedded session (ADR 2300). */
  const resolveEmbedded = async (ctx: AppContext, nonce: string) => {
    const id = one(ctx.query.embed);
    if (id === undefined) return;
    const r = one(ctx.query.r);
    const s = one(ctx.query.s);
    const session = E.toUnion(
      await cases.embeddedContext(
        id,
        r === undefined || s === undefined ? undefined : { requestId: r, signerRef: s },
      )(),
    );
    if (O.isSome(session)) markEmbedded(ctx, session.value, nonce);
  };

  const page =
    (handler: (ctx: AppContext, nonce: string) => Promise<void>) =>
    async (ctx: AppContext): Promise<void> => {
      const nonce = randomBytes(16).toString('base64');
      secure(ctx, options, nonce, []);
      try {
        await resolveEmbedded(ctx, nonce);
        secure(ctx, options, nonce, []);
        await handler(ctx, nonce);
      } catch (error) {
        const status =
          typeof (error as { status?: unknown }).status === 'number'
            ? (error as { status: number }).status
            : 500;
        if (status >= 500) ctx.state.log.error({ err: error }, 'signer page failed');
        secure(ctx, options, nonce, []);
        const { t } = browserLanguage(ctx);
        render(
          ctx,
          status >= 400 && status < 500 ? status : 500,
          messagePage({
            nonce,
            tr: browserLanguage(ctx),
            title:
              status === 413 ? t('error.tooLarge') : status < 500 ? t('error.unreadable') : t('error.ours'),
            message: status < 500 ? t('error.tryAgain') : t('error.oursDetail'),
          }),
        );
      }
    };

  return { page, render };
};
