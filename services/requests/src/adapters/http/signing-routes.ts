import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import coBody from 'co-body';
import type { Translator } from '@esign/contracts';
import type { AppContext, AppState } from '@esign/platform';
import type Router from '@koa/router';
import type {
  ActDone,
  ExecutionLink,
  LinkRefusal,
  SigningPage,
  SubmitRefusal,
} from '../../application/signing.js';
import type { UseCases } from '../../application/use-cases.js';
import type { EmbeddedUseCases } from '../../application/embedded-signing.js';
import {
  embeddedPageOf,
  forgetEmbedded,
  markEmbedded,
  tellHost,
  withEmbeddedScript,
} from './embedded-pages.js';
import { mountEmbeddedOpenRoute } from './embedded-signing-routes.js';
import { messagePage, signingPage, type PageContext, type Submitted } from './signing-pages.js';
import { pageTranslator } from './page-language.js';
import { pageBrandOf } from './branding-pages.js';
import {
  mountSignerAuthenticationRoutes,
  showCodePage,
  type SignerPageKit,
} from './signer-authentication-routes.js';
import { mountSignerNoticeRoutes } from './signer-notice-routes.js';
import { mountSignerOutcomeRoutes } from './signer-outcome-routes.js';
import {
  clientIp,
  drawingOf,
  DRAWING_PROBLEMS,
  FORM_LIMIT,
  linkOf,
  one,
  refusalOf,
  secure,
  type Refused,
  type SigningRouteOptions,
} from './signer-http.js';

export { clientIp, drawingOf, SIGNING_FORM_PATHS, type SigningRouteOptions } from './signer-http.js';

/**
 * The signer pages: `GET /sign` shows the contracts and the form, `POST /sign` signs,
 * `POST /sign/decline` declines, `GET /sign/done` says how it ended, `GET /sign/document`
 * serves a PDF contract pre-filled. No session, no cookie: every request carries the
 * Execution URL's signature, and every form a token bound to the signer and the document.
 */
export const mountSigningRoutes = (
  router: Router<AppState>,
  cases: UseCases & Pick<EmbeddedUseCases, 'openEmbeddedUrl' | 'embeddedContext'>,
  options: SigningRouteOptions,
): void => {
  const base = new URL(options.publicBaseUrl);
  const origin = base.origin;
  const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;

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
    const session = await cases.embeddedContext(
      id,
      r === undefined || s === undefined ? undefined : { requestId: r, signerRef: s },
    );
    if (session !== undefined) markEmbedded(ctx, session, nonce);
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

  /** The page's language: the signer's, else their Request's Site default, else the browser's. */
  const languageFor = (
    ctx: AppContext,
    signer?: { readonly locale?: string | null },
    request?: { readonly siteLocale?: string | null },
  ) => pageTranslator(ctx.get('accept-language'), signer, request);
  const browserLanguage = (ctx: AppContext) => languageFor(ctx);
  /** A refused page, in `tr`; an embedding host hears `error` (ADR 2300). */
  const refuse = (ctx: AppContext, nonce: string, refusal: Refused, tr = browserLanguage(ctx)) => {
    tellHost(ctx, { event: 'error', code: 'refused', message: refusal.title });
    render(ctx, refusal.status, messagePage({ nonce, tr, ...refusal }));
  };

  /** A link refused, in its signer's language when the refusal knows them. */
  const refuseLink = (ctx: AppContext, nonce: string, refusal: LinkRefusal) => {
    const tr = languageFor(ctx, 'signer' in refusal ? refusal.signer : undefined);
    refuse(ctx, nonce, refusalOf(refusal, tr), tr);
  };

  const incompleteLink = (ctx: AppContext, nonce: string) => {
    const { t } = browserLanguage(ctx);
    refuse(ctx, nonce, {
      status: 400,
      title: t('refusal.incomplete.title'),
      message: t('refusal.incomplete.message'),
      detail: t('refusal.incomplete.detail'),
    });
  };

  const contextFor = (
    nonce: string,
    link: ExecutionLink,
    auth?: string | null,
    tr?: Translator,
    embed?: string,
  ): PageContext => ({
    nonce,
    basePath,
    link: { r: link.requestId, s: link.signerRef, signature: link.signature, auth: auth ?? undefined, embed },
    ...(tr === undefined ? {} : { tr }),
  });

  /** The page's forms post here, and signing may end at the client's redirect_url. */
  const formTargets = (p: SigningPage): string[] => {
    const targets = ["'self'"];
    if (p.request.redirectUrl !== null) targets.push(new URL(p.request.redirectUrl).origin);
    return targets;
  };

  const showForm = (
    ctx: AppContext,
    nonce: string,
    status: number,
    p: SigningPage,
    link: ExecutionLink & { readonly auth?: string | null },
    extra: Parameters<typeof signingPage>[2] = {},
  ) => {
    secure(ctx, options, nonce, formTargets(p));
    const tr = languageFor(ctx, p.signer, p.request);
    const embed = embeddedPageOf(ctx)?.session.id;
    render(ctx, status, signingPage(contextFor(nonce, link, link.auth, tr, embed), p, extra));
  };

  const doneLink = (link: ExecutionLink, embed?: string) =>
    `${basePath}sign/done?${new URLSearchParams({ r: link.requestId, s: link.signerRef, signature: link.signature, ...(embed === undefined ? {} : { embed }) }).toString()}`;

  /**
   * After an act: the client's redirect_url, else our own page. 303, so a reload does not
   * post again. An embedded page stays in its frame: the host hears `signed` and moves on.
   */
  const finish = (ctx: AppContext, link: ExecutionLink, done: ActDone) => {
    ctx.status = 303;
    const embed = embeddedPageOf(ctx)?.session.id;
    ctx.redirect(embed === undefined ? (done.redirectTo ?? doneLink(link)) : doneLink(link, embed));
  };

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

  const signLink = (link: ExecutionLink, auth?: string) =>
    `${basePath}sign?${new URLSearchParams({ r: link.requestId, s: link.signerRef, signature: link.signature, ...(auth === undefined ? {} : { auth }) }).toString()}`;

  const submitRefusal = (
    ctx: AppContext,
    nonce: string,
    link: ExecutionLink & { readonly auth?: string | null },
    refusal: SubmitRefusal,
    submitted: Submitted,
  ) => {
    switch (refusal._tag) {
      case 'InvalidSubmission':
        return showForm(ctx, nonce, 422, refusal.page, link, { problems: refusal.problems, submitted });
      case 'FormTokenExpired':
        return showForm(ctx, nonce, 409, refusal.page, link, {
          submitted,
          notice: languageFor(ctx, refusal.page.signer, refusal.page.request).t('page.staleForm'),
        });
      case 'DocumentChanged':
        return showForm(ctx, nonce, 409, refusal.page, link, {
          notice: languageFor(ctx, refusal.page.signer, refusal.page.request).t('page.documentChanged'),
        });
      case 'AuthenticationRequired':
        // The pass is missing or too old: the code-entry page, from GET /sign.
        ctx.status = 303;
        return ctx.redirect(signLink(link));
      case 'InvalidFormToken': {
        const { t } = browserLanguage(ctx);
        return refuse(ctx, nonce, {
          status: 403,
          title: t('form.refused.title'),
          message: t('form.notFromPage'),
          detail: t('form.openAgain'),
        });
      }
      case 'AlreadySigned': {
        const tr = languageFor(ctx, refusal.signer, refusal.request);
        return refuse(
          ctx,
          nonce,
          { status: 409, title: tr.t('signed.already.title'), message: tr.t('signed.cannotDecline') },
          tr,
        );
      }
      default:
        return refuseLink(ctx, nonce, refusal);
    }
  };

  router.get(
    '/sign',
    page(async (ctx, nonce) => {
      const link = linkOf((n) => one(ctx.query[n]));
      if (link === undefined) return incompleteLink(ctx, nonce);
      // The first opening of a live link marks the signer viewed (ADR 2002).
      await cases.markViewed({ ...link, ...evidenceOf(ctx) })();
      const gate = await cases.signerGate({ ...link, authToken: one(ctx.query.auth) })();
      if (E.isRight(gate) && gate.right._tag === 'CodeRequired')
        return showCodePage(kit, ctx, nonce, 200, gate.right.page, link);
      const result = await cases.openSigningPage(link)();
      if (E.isLeft(result)) return refuseLink(ctx, nonce, result.left);
      const outcome = result.right;
      tellHost(ctx, { event: outcome._tag === 'AlreadySigned' ? 'signed' : 'viewed' });
      if (outcome._tag === 'AlreadySigned') {
        const tr = languageFor(ctx, outcome.signer, outcome.request);
        return render(
          ctx,
          200,
          messagePage({
            nonce,
            tr,
            from: outcome.request.siteName,
            brand: pageBrandOf(basePath, outcome.request),
            title: tr.t('signed.already.title'),
            message: tr.t('signed.already.message', { date: outcome.signer.signedAt ?? '' }),
            detail: tr.t('signed.already.detail'),
          }),
        );
      }
      const auth = E.isRight(gate) && gate.right._tag === 'Open' ? gate.right.authToken : null;
      showForm(ctx, nonce, 200, outcome.page, { ...link, auth });
    }),
  );

  const acceptForm = async (
    ctx: AppContext,
    nonce: string,
  ): Promise<{ form: URLSearchParams; link: ExecutionLink } | undefined> => {
    const { t } = browserLanguage(ctx);
    if (!sameOrigin(ctx)) {
      refuse(ctx, nonce, {
        status: 403,
        title: t('form.refused.title'),
        message: t('form.otherSite'),
        detail: t('form.openAndSubmit'),
      });
      return undefined;
    }
    const form = await readForm(ctx);
    if (form === undefined) {
      refuse(ctx, nonce, {
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
      incompleteLink(ctx, nonce);
      return undefined;
    }
    return { form, link };
  };

  const kit: SignerPageKit = {
    basePath,
    page,
    render,
    contextFor,
    languageFor,
    acceptForm,
    signLink,
    allowOwnForms: (ctx, nonce) => secure(ctx, options, nonce, ["'self'"]),
    refuse,
    refuseLink,
    incompleteLink,
    frameAncestors: options.frameAncestors,
  };
  mountSignerAuthenticationRoutes(router, cases, kit);
  mountSignerNoticeRoutes(router, cases, kit);
  mountEmbeddedOpenRoute(router, cases, kit);
  mountSignerOutcomeRoutes(router, cases, kit);

  const act = (
    submit: (
      link: ExecutionLink,
      form: URLSearchParams,
      ctx: AppContext,
      submitted: Submitted,
    ) => Promise<E.Either<SubmitRefusal | { _tag: 'BadDrawing'; message: string }, ActDone>>,
  ) =>
    page(async (ctx, nonce) => {
      const accepted = await acceptForm(ctx, nonce);
      if (accepted === undefined) return;
      const { form, link } = accepted;
      const values = new Map<number, string>();
      for (const [key, value] of form) {
        const match = /^f(\d{1,4})$/.exec(key);
        if (match !== null && !values.has(Number(match[1]))) values.set(Number(match[1]), value);
      }
      const submitted: Submitted = {
        values,
        typedName: form.get('typed_name') ?? '',
        consent: form.get('consent') === 'yes',
        reason: form.get('reason') ?? '',
      };
      const result = await submit(link, form, ctx, submitted);
      if (E.isRight(result)) return finish(ctx, link, result.right);
      if (result.left._tag === 'BadDrawing') {
        const { t } = browserLanguage(ctx);
        return refuse(ctx, nonce, {
          status: 400,
          title: t('drawing.unreadable.title'),
          message: t(DRAWING_PROBLEMS[result.left.message] ?? 'drawing.unreadable.message'),
          detail: t('drawing.unreadable.detail'),
        });
      }
      submitRefusal(ctx, nonce, { ...link, auth: form.get('auth') }, result.left, submitted);
    });

  const evidenceOf = (ctx: AppContext, form?: URLSearchParams) => ({
    ip: clientIp(ctx, options.trustedProxyHops),
    userAgent: (ctx.get('user-agent') || '(none)').slice(0, 512),
    authToken: form?.get('auth') ?? undefined,
  });

  router.post(
    '/sign',
    act(async (link, form, ctx, submitted) => {
      const drawing = drawingOf(form.get('drawn_signature') ?? undefined);
      if (E.isLeft(drawing)) return E.left({ _tag: 'BadDrawing', message: drawing.left });
      return cases.submitSignature({
        ...link,
        ...evidenceOf(ctx, form),
        formToken: form.get('form_token') ?? '',
        documentSha256: form.get('document_sha256') ?? '',
        values: submitted.values,
        typedName: submitted.typedName,
        consent: submitted.consent,
        drawnSignature: drawing.right,
      })();
    }),
  );

  router.post(
    '/sign/decline',
    act((link, form, ctx, submitted) =>
      cases.declineSigning({
        ...link,
        ...evidenceOf(ctx, form),
        formToken: form.get('form_token') ?? '',
        documentSha256: form.get('document_sha256') ?? '',
        reason: submitted.reason,
      })(),
    ),
  );
};
