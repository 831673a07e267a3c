import * as E from 'fp-ts/lib/Either.js';
import type { AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { UseCases } from '../../../application/use-cases.js';
import { showCodePage } from './code-routes.js';
import { tellHost } from './embedded-pages.js';
import type { SignerPageKit } from './page-kit.js';
import { linkOf, one } from './signer-http.js';

/**
 * `GET /sign` shows the contracts and the form (or the code-entry page first, ADR 2001),
 * and `GET /sign/done` says how the signer's part ended (signed, declined, or back to the page).
 */
export const mountSigningPageRoutes = (
  router: Router<AppState>,
  cases: Pick<UseCases, 'markViewed' | 'signerGate' | 'openSigningPage' | 'signerStatus'>,
  kit: SignerPageKit,
): void => {
  router.get(
    '/sign',
    kit.page(async (ctx, nonce) => {
      const link = linkOf((n) => one(ctx.query[n]));
      if (link === undefined) return kit.incompleteLink(ctx, nonce);
      // The first opening of a live link marks the signer viewed (ADR 2002).
      await cases.markViewed({ ...link, ...kit.evidenceOf(ctx) })();
      const gate = await cases.signerGate({ ...link, authToken: one(ctx.query.auth) })();
      if (E.isRight(gate) && gate.right._tag === 'CodeRequired')
        return showCodePage(kit, ctx, nonce, 200, gate.right.page, link);
      const result = await cases.openSigningPage(link)();
      if (E.isLeft(result)) return kit.refuseLink(ctx, nonce, result.left);
      const outcome = result.right;
      tellHost(ctx, { event: outcome._tag === 'AlreadySigned' ? 'signed' : 'viewed' });
      if (outcome._tag === 'AlreadySigned')
        return kit.ended(ctx, nonce, outcome, ({ t }) => ({
          title: t('signed.already.title'),
          message: t('signed.already.message', { date: outcome.signer.signedAt ?? '' }),
          detail: t('signed.already.detail'),
        }));
      const auth = E.isRight(gate) && gate.right._tag === 'Open' ? gate.right.authToken : null;
      kit.showForm(ctx, nonce, 200, outcome.page, { ...link, auth });
    }),
  );

  router.get(
    '/sign/done',
    kit.page(async (ctx, nonce) => {
      const link = linkOf((n) => one(ctx.query[n]));
      if (link === undefined) return kit.incompleteLink(ctx, nonce);
      const result = await cases.signerStatus(link)();
      if (E.isLeft(result)) return kit.refuseLink(ctx, nonce, result.left);
      const { request, signer } = result.right;
      const from = request.siteName;
      if (signer.state !== 'pending') tellHost(ctx, { event: signer.state });
      if (signer.state === 'signed')
        return kit.ended(ctx, nonce, result.right, ({ t }) => ({
          title: t('done.signed.title'),
          message: t('done.signed.message', { date: signer.signedAt ?? '' }),
          detail:
            request.state === 'completed'
              ? t('done.signed.complete', { site: from })
              : t('done.signed.waiting'),
        }));
      if (signer.state === 'declined')
        return kit.ended(ctx, nonce, result.right, ({ t }) => ({
          title: t('refusal.youDeclined.title'),
          message: t('done.declined.message', { site: from }),
        }));
      const again = `${kit.basePath}sign?${new URLSearchParams({ r: link.requestId, s: link.signerRef, signature: link.signature }).toString()}`;
      ctx.status = 303;
      ctx.redirect(again);
    }),
  );
};
