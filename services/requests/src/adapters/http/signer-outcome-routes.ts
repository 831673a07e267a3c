import * as E from 'fp-ts/lib/Either.js';
import type { AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { UseCases } from '../../application/use-cases.js';
import { pageBrandOf } from './branding-pages.js';
import { embeddedFrameAncestors, embeddedPageOf, tellHost } from './embedded-pages.js';
import type { SignerPageKit } from './signer-authentication-routes.js';
import { linkOf, one } from './signer-http.js';
import { messagePage } from './signing-pages.js';

/**
 * `GET /sign/done`, how the signer's part ended (signed, declined, or back to the page),
 * and `GET /sign/document`, a PDF contract pre-filled for the signer, shown inside the page.
 */
export const mountSignerOutcomeRoutes = (
  router: Router<AppState>,
  cases: Pick<UseCases, 'signerStatus' | 'signerGate' | 'signerPdf'>,
  kit: SignerPageKit,
): void => {
  router.get(
    '/sign/done',
    kit.page(async (ctx, nonce) => {
      const link = linkOf((n) => one(ctx.query[n]));
      if (link === undefined) return kit.incompleteLink(ctx, nonce);
      const result = await cases.signerStatus(link)();
      if (E.isLeft(result)) return kit.refuseLink(ctx, nonce, result.left);
      const { request, signer } = result.right;
      const from = request.siteName;
      const tr = kit.languageFor(ctx, signer, request);
      const { t } = tr;
      const brand = pageBrandOf(kit.basePath, request);
      if (signer.state !== 'pending') tellHost(ctx, { event: signer.state });
      const ended = (text: { title: string; message: string; detail?: string }) =>
        kit.render(ctx, 200, messagePage({ nonce, tr, from, brand, ...text }));
      if (signer.state === 'signed')
        return ended({
          title: t('done.signed.title'),
          message: t('done.signed.message', { date: signer.signedAt ?? '' }),
          detail:
            request.state === 'completed'
              ? t('done.signed.complete', { site: from })
              : t('done.signed.waiting'),
        });
      if (signer.state === 'declined')
        return ended({
          title: t('refusal.youDeclined.title'),
          message: t('done.declined.message', { site: from }),
        });
      const again = `${kit.basePath}sign?${new URLSearchParams({ r: link.requestId, s: link.signerRef, signature: link.signature }).toString()}`;
      ctx.status = 303;
      ctx.redirect(again);
    }),
  );

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
};
