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
      const refuse = (status: number, title: string, message: string) =>
        kit.render(ctx, status, messagePage({ nonce, title, message }));
      if ([requestId, signerRef, expires, signature].some((v) => v === undefined))
        return refuse(400, 'This link is incomplete', 'Open it again from the e-mail you received.');
      const result = await cases.executedCopy({
        requestId: requestId!,
        signerRef: signerRef!,
        expires: expires!,
        signature: signature!,
      })();
      if (E.isLeft(result)) {
        switch (result.left._tag) {
          case 'InvalidSignature':
            return refuse(403, 'This link is not valid', 'The link may have been changed or cut short.');
          case 'LinkExpired':
            return refuse(410, 'This link has expired', 'Ask the sender for a copy of the signed document.');
          case 'NoSuchRequest':
            return refuse(404, 'We cannot find this document', 'There is no document at this link.');
          case 'NotCompleted':
            return refuse(409, 'This document is not complete', 'Not everyone has signed it.');
        }
      }
      ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      ctx.set('Content-Disposition', `attachment; filename="${result.right.filename}"`);
      ctx.type = 'application/pdf';
      ctx.body = Buffer.from(result.right.pdf);
    }),
  );
};
