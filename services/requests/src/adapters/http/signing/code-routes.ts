import type { AppContext, AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { CodePage } from '../../../application/signing/code-page.js';
import type { ExecutionLink } from '../../../application/signing/verify-link.js';
import type { UseCases } from '../../../application/use-cases.js';
import { codeEntryPage } from './code-page.js';
import type { SignerPageKit } from './page-kit.js';

/** Shows the code-entry page. */
export const showCodePage = (
  kit: SignerPageKit,
  ctx: AppContext,
  nonce: string,
  status: number,
  page: CodePage,
  link: ExecutionLink,
  options: { error?: string; notice?: string } = {},
): void => {
  kit.allowOwnForms(ctx, nonce);
  const tr = kit.languageFor(ctx, page.signer, page.request);
  kit.render(ctx, status, codeEntryPage(kit.contextFor(nonce, link, undefined, tr), page, options));
};

/**
 * `POST /sign/verify` checks a code and, when right, sends the browser back to
 * `GET /sign` with the pass; `POST /sign/code` sends a new one-time code (ADR 2001).
 */
export const mountSignerAuthenticationRoutes = (
  router: Router<AppState>,
  cases: UseCases,
  kit: SignerPageKit,
): void => {
  router.post(
    '/sign/verify',
    kit.page(async (ctx, nonce) => {
      const accepted = await kit.acceptForm(ctx, nonce);
      if (accepted === undefined) return;
      const { form, link } = accepted;
      const result = await cases.verifySignerCode({
        ...link,
        code: form.get('code') ?? '',
        formToken: form.get('form_token') ?? '',
      })();
      // TaskEither<never, …>: always Right.
      if (result._tag === 'Left') return;
      const outcome = result.right;
      switch (outcome._tag) {
        case 'Passed':
          ctx.status = 303;
          return ctx.redirect(kit.signLink(link, outcome.authToken));
        case 'NotApplicable':
          ctx.status = 303;
          return ctx.redirect(kit.signLink(link));
        case 'WrongCode':
          return showCodePage(kit, ctx, nonce, 422, outcome.page, link, {
            error: kit
              .languageFor(ctx, outcome.page.signer, outcome.page.request)
              .t('code.wrong', { left: outcome.attemptsLeft }),
          });
        case 'CodeExpired':
          return showCodePage(kit, ctx, nonce, 422, outcome.page, link, {
            error: kit.languageFor(ctx, outcome.page.signer, outcome.page.request).t('code.expired'),
          });
        case 'Locked':
          return showCodePage(kit, ctx, nonce, 429, outcome.page, link);
      }
    }),
  );

  router.post(
    '/sign/code',
    kit.page(async (ctx, nonce) => {
      const accepted = await kit.acceptForm(ctx, nonce);
      if (accepted === undefined) return;
      const { form, link } = accepted;
      const result = await cases.resendSignerCode({ ...link, formToken: form.get('form_token') ?? '' })();
      if (result._tag === 'Left') return;
      if (result.right._tag === 'Open') {
        ctx.status = 303;
        return ctx.redirect(kit.signLink(link));
      }
      const page = result.right.page;
      showCodePage(kit, ctx, nonce, 200, page, link, {
        notice:
          page.smsLimitUntil === null && page.lockedUntil === null
            ? kit.languageFor(ctx, page.signer, page.request).t('code.sentNew')
            : undefined,
      });
    }),
  );
};
