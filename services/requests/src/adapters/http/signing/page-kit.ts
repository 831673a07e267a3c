import type { Translator } from '@esign/contracts';
import type { AppContext } from '@esign/platform';
import type { SigningPage } from '../../../application/signing/signing-page.js';
import type { RequestSigner, SignatureRequest } from '../../../domain/signature-request.js';
import type { Upload } from '../../../domain/attachments.js';
import type { ExecutionLink, LinkRefusal } from '../../../application/signing/verify-link.js';
import type { EmbeddedUseCases } from '../../../application/embedded-signing.js';
import { embeddedPageOf, tellHost } from './embedded-pages.js';
import { formAcceptor } from './form-acceptance.js';
import type { PageContext } from './layout.js';
import { messagePage } from './message-page.js';
import { pageBrandOf } from './page-brand.js';
import { pageHandler } from './page-handler.js';
import { pageTranslator } from './page-language.js';
import { refusalOf, type Refused } from './refusals.js';
import { clientIp, secure, type SigningRouteOptions } from './signer-http.js';
import { signingPage } from './signing-page.js';

/** A signer link and the pass it carries, if any (signer authentication, ADR 2001). */
export type PassedLink = ExecutionLink & { readonly auth?: string | null };

/** What the signer routes share: their page wrapper, form reading, refusals and checks. */
/** A message page's words, in the signer's language. */
type PageText = { readonly title: string; readonly message: string; readonly detail?: string };

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
  ) => Promise<{ form: URLSearchParams; link: ExecutionLink; uploads: readonly Upload[] } | undefined>;
  /** `GET /sign` for this link, with a pass when there is one. */
  readonly signLink: (link: ExecutionLink, auth?: string) => string;
  /** A refused page, in `tr` (the browser's language by default); an embedding host hears `error`. */
  readonly refuse: (ctx: AppContext, nonce: string, refusal: Refused, tr?: Translator) => void;
  /** A page saying how the signer's part went (200), in their language and their Site's brand. */
  readonly ended: (
    ctx: AppContext,
    nonce: string,
    about: { readonly request: SignatureRequest; readonly signer: RequestSigner },
    text: (tr: Translator) => PageText,
  ) => void;
  /** A refused page about one signer's part, in their language. */
  readonly refuseFor: (
    ctx: AppContext,
    nonce: string,
    about: { readonly request: SignatureRequest; readonly signer: RequestSigner },
    status: number,
    text: (tr: Translator) => PageText,
  ) => void;
  /** A link refused, in its signer's language when the refusal knows them. */
  readonly refuseLink: (ctx: AppContext, nonce: string, refusal: LinkRefusal) => void;
  /** A link missing one of its parts. */
  readonly incompleteLink: (ctx: AppContext, nonce: string) => void;
  /** The signing page with its form, in the signer's language. */
  readonly showForm: (
    ctx: AppContext,
    nonce: string,
    status: number,
    p: SigningPage,
    link: PassedLink,
    extra?: Parameters<typeof signingPage>[2],
  ) => void;
  /** Who acted and from where, for the audit entry; the pass a form carries. */
  readonly evidenceOf: (
    ctx: AppContext,
    form?: URLSearchParams,
  ) => { ip: string; userAgent: string; authToken: string | undefined };
  /** CSP `frame-ancestors` of the signer pages when not embedded. */
  readonly frameAncestors: string;
}

/**
 * The kit of the signer pages at one public address. No session, no cookie: every request
 * carries the Execution URL's signature, and every form a token bound to the signer and
 * the document.
 */
export const signerPageKit = (
  cases: Pick<EmbeddedUseCases, 'embeddedContext'>,
  options: SigningRouteOptions,
): SignerPageKit => {
  const base = new URL(options.publicBaseUrl);
  const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;

  /** The page's language: the signer's, else their Request's Site default, else the browser's. */
  const languageFor = (
    ctx: AppContext,
    signer?: { readonly locale?: string | null },
    request?: { readonly siteLocale?: string | null },
  ) => pageTranslator(ctx.get('accept-language'), signer, request);
  const browserLanguage = (ctx: AppContext) => languageFor(ctx);
  const { page, render } = pageHandler(cases, options, browserLanguage);

  /** A refused page, in `tr`; an embedding host hears `error` (ADR 2300). */
  const refuse = (ctx: AppContext, nonce: string, refusal: Refused, tr = browserLanguage(ctx)) => {
    tellHost(ctx, { event: 'error', code: 'refused', message: refusal.title });
    render(ctx, refusal.status, messagePage({ nonce, tr, ...refusal }));
  };

  const ended: SignerPageKit['ended'] = (ctx, nonce, { request, signer }, text) => {
    const tr = languageFor(ctx, signer, request);
    const brand = pageBrandOf(basePath, request);
    render(ctx, 200, messagePage({ nonce, tr, from: request.siteName, brand, ...text(tr) }));
  };

  const refuseFor: SignerPageKit['refuseFor'] = (ctx, nonce, { request, signer }, status, text) => {
    const tr = languageFor(ctx, signer, request);
    refuse(ctx, nonce, { status, ...text(tr) }, tr);
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

  const showForm: SignerPageKit['showForm'] = (ctx, nonce, status, p, link, extra = {}) => {
    secure(ctx, options, nonce, formTargets(p));
    const tr = languageFor(ctx, p.signer, p.request);
    const embed = embeddedPageOf(ctx)?.session.id;
    render(ctx, status, signingPage(contextFor(nonce, link, link.auth, tr, embed), p, extra));
  };

  const signLink = (link: ExecutionLink, auth?: string) =>
    `${basePath}sign?${new URLSearchParams({ r: link.requestId, s: link.signerRef, signature: link.signature, ...(auth === undefined ? {} : { auth }) }).toString()}`;

  const evidenceOf = (ctx: AppContext, form?: URLSearchParams) => ({
    ip: clientIp(ctx, options.trustedProxyHops),
    userAgent: (ctx.get('user-agent') || '(none)').slice(0, 512),
    authToken: form?.get('auth') ?? undefined,
  });

  return {
    basePath,
    page,
    render,
    contextFor,
    languageFor,
    acceptForm: formAcceptor(options, { languageFor, refuse, incompleteLink }),
    signLink,
    allowOwnForms: (ctx, nonce) => secure(ctx, options, nonce, ["'self'"]),
    refuse,
    ended,
    refuseFor,
    refuseLink,
    incompleteLink,
    showForm,
    evidenceOf,
    frameAncestors: options.frameAncestors,
  };
};
