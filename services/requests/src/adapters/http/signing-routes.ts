import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import coBody from 'co-body';
import type { MessageKey, Translator } from '@esign/contracts';
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
  embeddedFrameAncestors,
  embeddedPageOf,
  forgetEmbedded,
  markEmbedded,
  tellHost,
  withEmbeddedScript,
} from './embedded-pages.js';
import { mountEmbeddedOpenRoute } from './embedded-signing-routes.js';
import { messagePage, signingPage, type PageContext, type Submitted } from './signing-pages.js';
import { notYourTurn } from './signing-order-pages.js';
import { pageTranslator } from './page-language.js';
import { pageBrandOf } from './branding-pages.js';
import {
  mountSignerAuthenticationRoutes,
  showCodePage,
  type SignerPageKit,
} from './signer-authentication-routes.js';
import { mountSignerNoticeRoutes } from './signer-notice-routes.js';

export interface SigningRouteOptions {
  /** The public address Execution URLs start with; its origin is the pages' own. */
  readonly publicBaseUrl: string;
  /** CSP `frame-ancestors` sources: who may embed the signer pages (`'none'` by default). */
  readonly frameAncestors: string;
  /** Proxies in front of the service that append to X-Forwarded-For (the gateway is one). */
  readonly trustedProxyHops: number;
}

/** Paths whose bodies this module reads itself (HTML forms, not JSON). */
export const SIGNING_FORM_PATHS = ['/sign', '/sign/decline', '/sign/verify', '/sign/code'] as const;

const FORM_LIMIT = '600kb';
const MAX_DRAWING_BYTES = 300_000;

/** The headers every signer page and file carries; `formAction` lists where its forms may go. */
const secure = (
  ctx: AppContext,
  options: SigningRouteOptions,
  nonce: string,
  formAction: readonly string[],
) => {
  // An embedded page (ADR 2300) is framed by its Developer App's origins and nothing else.
  const embedded = embeddedPageOf(ctx);
  const ancestors =
    embedded === undefined ? options.frameAncestors : embeddedFrameAncestors(embedded.session);
  ctx.set({
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "object-src 'self'",
      // The Site's logo (ADR 2301) and nothing else: not even a favicon is fetched.
      `img-src ${new URL('sign/logo/', options.publicBaseUrl.endsWith('/') ? options.publicBaseUrl : `${options.publicBaseUrl}/`).toString()}`,
      "frame-src 'self'",
      `form-action ${formAction.length === 0 ? "'none'" : formAction.join(' ')}`,
      `frame-ancestors ${ancestors}`,
      "base-uri 'none'",
    ].join('; '),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'X-Robots-Tag': 'noindex, nofollow',
    ...(ancestors === "'none'" ? { 'X-Frame-Options': 'DENY' } : {}),
  });
  if (ancestors !== "'none'") ctx.remove('X-Frame-Options');
};

const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const SANE = /^[A-Za-z0-9._~-]{1,200}$/;

/** r, s and signature as one link, or nothing when any is missing or malformed. */
const linkOf = (get: (name: string) => string | undefined): ExecutionLink | undefined => {
  const requestId = get('r');
  const signerRef = get('s');
  const signature = get('signature');
  if ([requestId, signerRef, signature].some((v) => v === undefined || !SANE.test(v))) return undefined;
  return { requestId: requestId!, signerRef: signerRef!, signature: signature! };
};

/** The address the request came from: `hops` proxies back along X-Forwarded-For. */
export const clientIp = (ctx: AppContext, hops: number): string => {
  const socket = ctx.req.socket.remoteAddress ?? 'unknown';
  const forwarded = (ctx.get('x-forwarded-for') || '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const chain = [...forwarded, socket];
  const ip = chain[Math.max(0, chain.length - 1 - hops)]!;
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
};

/** A drawn signature as posted by the page's script: a PNG data URL of bounded size and shape. */
export const drawingOf = (raw: string | undefined): E.Either<string, Uint8Array | null> => {
  if (raw === undefined || raw === '') return E.right(null);
  const prefix = 'data:image/png;base64,';
  if (!raw.startsWith(prefix)) return E.left('is not a PNG image');
  const bytes = Buffer.from(raw.slice(prefix.length), 'base64');
  if (bytes.length > MAX_DRAWING_BYTES) return E.left('is too large');
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(magic) || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return E.left('is not a PNG image');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width < 1 || height < 1 || width > 4000 || height > 2000) return E.left('has an unusual size');
  return E.right(new Uint8Array(bytes));
};

/** What `drawingOf` says is wrong with a drawing, as the page says it (ADR 2320). */
const DRAWING_PROBLEMS: Readonly<Record<string, MessageKey>> = {
  'is not a PNG image': 'drawing.notPng',
  'is too large': 'drawing.tooLarge',
  'has an unusual size': 'drawing.oddSize',
};

interface Refused {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly detail?: string;
}

/** Every refusal of a link, with its page and status: the contract is never shown. */
export const refusalOf = (refusal: LinkRefusal, tr: Translator): Refused => {
  const { t } = tr;
  switch (refusal._tag) {
    case 'InvalidSignature':
      return {
        status: 403,
        title: t('refusal.invalid.title'),
        message: t('refusal.invalid.message'),
        detail: t('refusal.invalid.detail'),
      };
    case 'NoSuchRequest':
    case 'UnknownSigner':
      return {
        status: 404,
        title: t('refusal.notFound.title'),
        message: t('refusal.notFound.message'),
        detail: t('refusal.notFound.detail'),
      };
    case 'NotYetSent':
      return {
        status: 409,
        title: t('refusal.notSent.title'),
        message: t('refusal.notSent.message'),
        detail: t('refusal.notSent.detail'),
      };
    case 'Expired':
      return {
        status: 410,
        title: t('refusal.expired.title'),
        message: t('refusal.expired.message'),
        detail: t('refusal.expired.detail'),
      };
    case 'Replaced':
      return {
        status: 410,
        title: t('refusal.replaced.title'),
        message: t('refusal.replaced.message'),
        detail: t('refusal.replaced.detail'),
      };
    case 'LinkExpired':
      return {
        status: 410,
        title: t('refusal.expired.title'),
        message: t('refusal.linkExpired.message'),
        detail: t('refusal.linkExpired.detail'),
      };
    case 'NotYourTurn':
      return notYourTurn(refusal, tr);
    case 'UnshownContent':
      return {
        status: 409,
        title: t('refusal.cannotSign.title'),
        message: t('refusal.unshown.message'),
        detail: t('refusal.unshown.detail'),
      };
    case 'Closed':
      switch (refusal.state) {
        case 'cancelled':
          return {
            status: 410,
            title: t('refusal.cancelled.title'),
            message: t('refusal.cancelled.message'),
          };
        case 'declined':
          return refusal.signer.state === 'declined'
            ? {
                status: 410,
                title: t('refusal.youDeclined.title'),
                message: t('refusal.youDeclined.message'),
              }
            : {
                status: 410,
                title: t('refusal.declined.title'),
                message: t('refusal.declined.message'),
              };
        case 'completed':
          return {
            status: 410,
            title: t('refusal.complete.title'),
            message:
              refusal.signer.signedAt === null
                ? t('refusal.complete.message')
                : t('refusal.completeSigned.message', { date: refusal.signer.signedAt }),
          };
        default:
          return {
            status: 409,
            title: t('refusal.cannotSign.title'),
            message: t('refusal.notOpen.message'),
          };
      }
  }
};

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
  };
  mountSignerAuthenticationRoutes(router, cases, kit);
  mountSignerNoticeRoutes(router, cases, kit);
  mountEmbeddedOpenRoute(router, cases, kit);

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

  router.get(
    '/sign/done',
    page(async (ctx, nonce) => {
      const link = linkOf((n) => one(ctx.query[n]));
      if (link === undefined) return incompleteLink(ctx, nonce);
      const result = await cases.signerStatus(link)();
      if (E.isLeft(result)) return refuseLink(ctx, nonce, result.left);
      const { request, signer } = result.right;
      const from = request.siteName;
      const tr = languageFor(ctx, signer, request);
      const { t } = tr;
      const brand = pageBrandOf(basePath, request);
      if (signer.state !== 'pending') tellHost(ctx, { event: signer.state });
      if (signer.state === 'signed')
        return render(
          ctx,
          200,
          messagePage({
            nonce,
            tr,
            from,
            brand,
            title: t('done.signed.title'),
            message: t('done.signed.message', { date: signer.signedAt ?? '' }),
            detail:
              request.state === 'completed'
                ? t('done.signed.complete', { site: from })
                : t('done.signed.waiting'),
          }),
        );
      if (signer.state === 'declined')
        return render(
          ctx,
          200,
          messagePage({
            nonce,
            tr,
            from,
            brand,
            title: t('refusal.youDeclined.title'),
            message: t('done.declined.message', { site: from }),
          }),
        );
      const again = `${basePath}sign?${new URLSearchParams({ r: link.requestId, s: link.signerRef, signature: link.signature }).toString()}`;
      ctx.status = 303;
      ctx.redirect(again);
    }),
  );

  router.get(
    '/sign/document',
    page(async (ctx, nonce) => {
      const link = linkOf((n) => one(ctx.query[n]));
      const contract = one(ctx.query.contract);
      if (link === undefined || contract === undefined || !/^[1-9][0-9]{0,14}$/.test(contract))
        return incompleteLink(ctx, nonce);
      const gate = await cases.signerGate({ ...link, authToken: one(ctx.query.auth) })();
      const { t } = browserLanguage(ctx);
      if (E.isRight(gate) && gate.right._tag === 'CodeRequired')
        return refuse(ctx, nonce, {
          status: 401,
          title: t('document.codeFirst.title'),
          message: t('document.codeFirst.message'),
        });
      const result = await cases.signerPdf({ ...link, contractId: Number(contract) })();
      if (E.isLeft(result)) {
        if (result.left._tag === 'NoSuchContract')
          return refuse(ctx, nonce, {
            status: 404,
            title: t('document.none.title'),
            message: t('document.none.message'),
          });
        return refuseLink(ctx, nonce, result.left);
      }
      // The PDF is shown inside our own page (and wherever that page may be embedded).
      const embedded = embeddedPageOf(ctx);
      const ancestors =
        embedded === undefined ? options.frameAncestors : embeddedFrameAncestors(embedded.session);
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
