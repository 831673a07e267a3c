import type { Translator } from '@esign/contracts';
import type { AppContext, AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { CodePage } from '../../application/signer-authentication.js';
import type { ExecutionLink, LinkRefusal } from '../../application/signing.js';
import type { UseCases } from '../../application/use-cases.js';
import { codeEntryPage } from './signer-authentication-pages.js';
import type { Refused } from './signer-http.js';
import type { PageContext } from './signing-pages.js';

/** What the signer routes lend these: their page wrapper, form reading and checks. */
export interface SignerPageKit {
  readonly basePath: string;
  readonly page: (
    handler: (ctx: AppContext, nonce: string) => Promise<void>,
  ) => (ctx: AppContext) => Promise<void>;
  readonly render: (ctx: AppContext, status: number, body: string) => void;
  /** The security headers of a page whose forms post to this origin (CSP form-action 'self'). */
  readonly allowOwnForms: (ctx: AppContext, nonce: string) => void;
  readonly contextFor: (
    nonce: string,
    link: ExecutionLink,
    auth?: string | null,
    tr?: Translator,
  ) => PageContext;
  /** The language of a page (ADR 2320): the signer's, else their Request's Site default, else the browser's. */
  readonly languageFor: (
    ctx: AppContext,
    signer?: { readonly locale?: string | null },
    request?: { readonly siteLocale?: string | null },
  ) => Translator;
  /** Refuses (and answers) a form that is not same-origin or not a form; else its fields and link. */
  readonly acceptForm: (
    ctx: AppContext,
    nonce: string,
  ) => Promise<{ form: URLSearchParams; link: ExecutionLink } | undefined>;
  /** `GET /sign` for this link, with a pass when there is one. */
  readonly signLink: (link: ExecutionLink, auth?: string) => string;
  /** A refused page, in `tr` (the browser's language by default); an embedding host hears `error`. */
  readonly refuse: (ctx: AppContext, nonce: string, refusal: Refused, tr?: Translator) => void;
  /** A link refused, in its signer's language when the refusal knows them. */
  readonly refuseLink: (ctx: AppContext, nonce: string, refusal: LinkRefusal) => void;
  /** A link missing one of its parts. */
  readonly incompleteLink: (ctx: AppContext, nonce: string) => void;
  /** CSP `frame-ancestors` of the signer pages when not embedded. */
  readonly frameAncestors: string;
}

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
