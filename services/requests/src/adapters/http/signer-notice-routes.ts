import * as E from 'fp-ts/lib/Either.js';
import type { AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { UseCases } from '../../application/use-cases.js';
import type { SignerPageKit } from './signer-authentication-routes.js';
import { messagePage } from './signing-pages.js';

const SANE = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * `GET /sign/copy`: the signer's copy of the executed PDF, from the signed, expiring link
 * in the completion e-mail (ADR 2002). A bad or old link shows a page, never the PDF.
 */
export const mountSignerNoticeRoutes = (
  router: Router<AppState>,
  cases: UseCases,
  kit: SignerPageKit,
): void => {
  router.get(
    '/sign/copy',
    kit.page(async (ctx, nonce) => {
      const get = (name: string) => {
        const v = ctx.query[name];
        return typeof v === 'string' && SANE.test(v) ? v : undefined;
      };
      const [requestId, signerRef, expires, signature] = ['r', 's', 'e', 'signature'].map(get);
      const tr = kit.languageFor(ctx);
      const { t } = tr;
      const refuse = (status: number, title: string, message: string) =>
        kit.render(ctx, status, messagePage({ nonce, tr, title, message }));
      if ([requestId, signerRef, expires, signature].some((v) => v === undefined))
        return refuse(400, t('refusal.incomplete.title'), t('copy.incomplete'));
      const result = await cases.executedCopy({
        requestId: requestId!,
        signerRef: signerRef!,
        expires: expires!,
        signature: signature!,
      })();
      if (E.isLeft(result)) {
        switch (result.left._tag) {
          case 'InvalidSignature':
            return refuse(403, t('refusal.invalid.title'), t('refusal.invalid.message'));
          case 'LinkExpired':
            return refuse(410, t('refusal.expired.title'), t('copy.expired'));
          case 'NoSuchRequest':
            return refuse(404, t('refusal.notFound.title'), t('copy.notFound'));
          case 'NotCompleted':
            return refuse(409, t('copy.notComplete.title'), t('copy.notComplete.message'));
        }
      }
      ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      ctx.set('Content-Disposition', `attachment; filename="${result.right.filename}"`);
      ctx.type = 'application/pdf';
      ctx.body = Buffer.from(result.right.pdf);
    }),
  );
};
