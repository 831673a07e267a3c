import * as E from 'fp-ts/lib/Either.js';
import type { AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { CopyRefusal } from '../../../application/signer-notices.js';
import type { UseCases } from '../../../application/use-cases.js';
import { SealUnavailable } from '../../../ports/document-sealer.js';
import { embeddedFrameAncestors, embeddedPageOf } from './embedded-pages.js';
import { messagePage } from './message-page.js';
import type { SignerPageKit } from './page-kit.js';
import { linkOf, one, SANE } from './signer-http.js';

/**
 * The signer's PDFs: `GET /sign/document`, a contract pre-filled for the signer and shown
 * inside the signing page, and `GET /sign/copy`, the signer's copy of the executed PDF from
 * the signed, expiring link in the completion e-mail (ADR 2002). A bad or old link shows a
 * page, never the PDF.
 */
export const mountSignerDocumentRoutes = (
  router: Router<AppState>,
  cases: Pick<UseCases, 'signerGate' | 'signerPdf' | 'executedCopy'>,
  kit: SignerPageKit,
): void => {
  router.get(
    '/sign/document',
    kit.page(async (ctx, nonce) => {
      const link = linkOf((n) => one(ctx.query[n]));
      const contract = one(ctx.query.contract);
      if (link === undefined || contract === undefined || !/^[1-9][0-9]{0,14}$/.test(contract))
        return kit.incompleteLink(ctx, nonce);
      const gate = await cases.signerGate({ ...link, authToken: one(ctx.query.auth) })();
      const { t } = kit.languageFor(ctx);
      if (E.isRight(gate) && gate.right._tag === 'CodeRequired')
        return kit.refuse(ctx, nonce, {
          status: 401,
          title: t('document.codeFirst.title'),
          message: t('document.codeFirst.message'),
        });
      const result = await cases.signerPdf({ ...link, contractId: Number(contract) })();
      if (E.isLeft(result)) {
        if (result.left._tag === 'NoSuchContract')
          return kit.refuse(ctx, nonce, {
            status: 404,
            title: t('document.none.title'),
            message: t('document.none.message'),
          });
        return kit.refuseLink(ctx, nonce, result.left);
      }
      // The PDF is shown inside our own page (and wherever that page may be embedded).
      const embedded = embeddedPageOf(ctx);
      const ancestors =
        embedded === undefined ? kit.frameAncestors : embeddedFrameAncestors(embedded.session);
      ctx.set(
        'Content-Security-Policy',
        `default-src 'none'; frame-ancestors 'self'${ancestors === "'none'" ? '' : ` ${ancestors}`}`,
      );
      ctx.remove('X-Frame-Options');
      ctx.set(
        'Content-Disposition',
        `inline; filename="contract-${contract}.pdf"; filename*=UTF-8''${encodeURIComponent(`${result.right.name}.pdf`)}`,
      );
      ctx.type = 'application/pdf';
      ctx.body = Buffer.from(result.right.pdf);
    }),
  );

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
      const result: E.Either<
        CopyRefusal | { readonly _tag: 'SealUnavailable' },
        { readonly filename: string; readonly pdf: Uint8Array }
      > = await cases
        .executedCopy({
          requestId: requestId!,
          signerRef: signerRef!,
          expires: expires!,
          signature: signature!,
        })()
        // The copy cannot be sealed while the time-stamp authority is down or the seal's
        // certificate is out of date: the Request is complete, its copy not ready yet.
        .catch((error: unknown) => {
          if (error instanceof SealUnavailable) return E.left({ _tag: 'SealUnavailable' as const });
          throw error;
        });
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
          case 'SealUnavailable':
            ctx.set('Retry-After', '30');
            return refuse(503, t('copy.unavailable.title'), t('copy.unavailable.message'));
        }
      }
      ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      ctx.set('Content-Disposition', `attachment; filename="${result.right.filename}"`);
      ctx.type = 'application/pdf';
      ctx.body = Buffer.from(result.right.pdf);
    }),
  );
};
