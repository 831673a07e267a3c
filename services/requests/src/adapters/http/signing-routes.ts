import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import coBody from 'co-body';
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

interface Refused {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly detail?: string;
}

/** Every refusal of a link, with its page and status: the contract is never shown. */
export const refusalOf = (refusal: LinkRefusal): Refused => {
  switch (refusal._tag) {
    case 'InvalidSignature':
      return {
        status: 403,
        title: 'This link is not valid',
        message: 'The link may have been changed or cut short.',
        detail: 'Open it again from the message you received, or ask the sender for a new one.',
      };
    case 'NoSuchRequest':
    case 'UnknownSigner':
      return {
        status: 404,
        title: 'We cannot find this document',
        message: 'There is no document to sign at this link.',
        detail: 'Ask the sender for a new link.',
      };
    case 'NotYetSent':
      return {
        status: 409,
        title: 'This document is not ready yet',
        message: 'The sender has not sent it for signing yet.',
        detail: 'Open the link again once you are told it is ready.',
      };
    case 'Expired':
      return {
        status: 410,
        title: 'This link has expired',
        message: 'The time to sign this document is over.',
        detail: 'Ask the sender to send it again if you still need to sign it.',
      };
    case 'Replaced':
      return {
        status: 410,
        title: 'This link was replaced',
        message: 'The sender has sent you a newer link to this document, so this one no longer opens.',
        detail: 'Open the most recent message you received about it, or ask the sender for a new link.',
      };
    case 'LinkExpired':
      return {
        status: 410,
        title: 'This link has expired',
        message: 'Signing links work for a limited time, and this one is too old to open.',
        detail: 'Ask the sender for a new link: they can send you a fresh one for this document.',
      };
    case 'NotYourTurn':
      return notYourTurn(refusal);
    case 'UnshownContent':
      return {
        status: 409,
        title: 'This document cannot be signed',
        message: 'It holds content this page cannot show you, so you would not see all you sign.',
        detail: 'Ask the sender to send it again with a new template.',
      };
    case 'Closed':
      switch (refusal.state) {
        case 'cancelled':
          return {
            status: 410,
            title: 'This request was cancelled',
            message: 'The sender cancelled it: there is nothing to sign.',
          };
        case 'declined':
          return refusal.signer.state === 'declined'
            ? { status: 410, title: 'You declined to sign', message: 'The sender has been told.' }
            : {
                status: 410,
                title: 'This request was declined',
                message: 'A signer declined it, so it can no longer be signed.',
              };
        case 'completed':
          return {
            status: 410,
            title: 'This document is complete',
            message:
              refusal.signer.signedAt === null
                ? 'Everyone has signed it.'
                : `Everyone has signed it; you signed on ${refusal.signer.signedAt} (UTC).`,
          };
        default:
          return {
            status: 409,
            title: 'This document cannot be signed',
            message: 'It is not open for signing.',
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
        render(
          ctx,
          status >= 400 && status < 500 ? status : 500,
          messagePage({
            nonce,
            title:
              status === 413
                ? 'That was too much to send'
                : status < 500
                  ? 'This request could not be read'
                  : 'Something went wrong on our side',
            message:
              status < 500
                ? 'Please go back and try again.'
                : 'Nothing was signed. Please try again in a moment.',
          }),
        );
      }
    };

  const refuse = (ctx: AppContext, nonce: string, refusal: Refused) => {
    tellHost(ctx, { event: 'error', code: 'refused', message: refusal.title });
    render(ctx, refusal.status, messagePage({ nonce, ...refusal }));
  };

  const incompleteLink = (ctx: AppContext, nonce: string) =>
    refuse(ctx, nonce, {
      status: 400,
      title: 'This link is incomplete',
      message: 'Part of the link is missing.',
      detail: 'Open it again from the message you received; copy the whole address if you paste it.',
    });

  const contextFor = (
    nonce: string,
    link: ExecutionLink,
    auth?: string | null,
    embed?: string,
  ): PageContext => ({
    nonce,
    basePath,
    link: { r: link.requestId, s: link.signerRef, signature: link.signature, auth: auth ?? undefined, embed },
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
    const embed = embeddedPageOf(ctx)?.session.id;
    render(ctx, status, signingPage(contextFor(nonce, link, link.auth, embed), p, extra));
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
          notice: 'This page was open for a long time. Please check the document and submit again.',
        });
      case 'DocumentChanged':
        return showForm(ctx, nonce, 409, refusal.page, link, {
          notice: 'The document is not the one this page showed. Please read it again before you sign.',
        });
      case 'AuthenticationRequired':
        // The pass is missing or too old: the code-entry page, from GET /sign.
        ctx.status = 303;
        return ctx.redirect(signLink(link));
      case 'InvalidFormToken':
        return refuse(ctx, nonce, {
          status: 403,
          title: 'This form could not be accepted',
          message: 'It did not come from your signing page.',
          detail: 'Open your signing link again and submit from there.',
        });
      case 'AlreadySigned':
        return refuse(ctx, nonce, {
          status: 409,
          title: 'You have already signed',
          message: 'A signed document cannot be declined afterwards.',
        });
      default:
        return refuse(ctx, nonce, refusalOf(refusal));
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
      if (E.isLeft(result)) return refuse(ctx, nonce, refusalOf(result.left));
      const outcome = result.right;
      tellHost(ctx, { event: outcome._tag === 'AlreadySigned' ? 'signed' : 'viewed' });
      if (outcome._tag === 'AlreadySigned')
        return render(
          ctx,
          200,
          messagePage({
            nonce,
            from: outcome.request.siteName,
            brand: pageBrandOf(basePath, outcome.request),
            title: 'You have already signed',
            message: `You signed on ${outcome.signer.signedAt ?? ''} (UTC). Nothing more is needed from you.`,
            detail: 'The document is complete once every signer has signed.',
          }),
        );
      const auth = E.isRight(gate) && gate.right._tag === 'Open' ? gate.right.authToken : null;
      showForm(ctx, nonce, 200, outcome.page, { ...link, auth });
    }),
  );

  const acceptForm = async (
    ctx: AppContext,
    nonce: string,
  ): Promise<{ form: URLSearchParams; link: ExecutionLink } | undefined> => {
    if (!sameOrigin(ctx)) {
      refuse(ctx, nonce, {
        status: 403,
        title: 'This form could not be accepted',
        message: 'It was sent from another site.',
        detail: 'Open your signing link and submit from there.',
      });
      return undefined;
    }
    const form = await readForm(ctx);
    if (form === undefined) {
      refuse(ctx, nonce, {
        status: 415,
        title: 'This request could not be read',
        message: 'Submit the form from your signing page.',
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
      if (result.left._tag === 'BadDrawing')
        return refuse(ctx, nonce, {
          status: 400,
          title: 'The drawn signature could not be read',
          message: `It ${result.left.message}.`,
          detail: 'Go back, clear the drawing and draw again, or sign with your typed name alone.',
        });
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
      if (E.isLeft(result)) return refuse(ctx, nonce, refusalOf(result.left));
      const { request, signer } = result.right;
      const from = request.siteName;
      const brand = pageBrandOf(basePath, request);
      if (signer.state !== 'pending') tellHost(ctx, { event: signer.state });
      if (signer.state === 'signed')
        return render(
          ctx,
          200,
          messagePage({
            nonce,
            from,
            brand,
            title: 'Thank you: you have signed',
            message: `You signed on ${signer.signedAt ?? ''} (UTC).`,
            detail:
              request.state === 'completed'
                ? `Everyone has signed: the document is complete and ${from} has it.`
                : 'The document is complete once the other signers have signed too.',
          }),
        );
      if (signer.state === 'declined')
        return render(
          ctx,
          200,
          messagePage({
            nonce,
            from,
            brand,
            title: 'You declined to sign',
            message: `${from} has been told, with your reason. Nothing was signed.`,
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
      if (E.isRight(gate) && gate.right._tag === 'CodeRequired')
        return refuse(ctx, nonce, {
          status: 401,
          title: 'Enter your code first',
          message: 'This document opens once you have entered your code on the signing page.',
        });
      const result = await cases.signerPdf({ ...link, contractId: Number(contract) })();
      if (E.isLeft(result)) {
        if (result.left._tag === 'NoSuchContract')
          return refuse(ctx, nonce, {
            status: 404,
            title: 'No such document',
            message: 'This request has no PDF contract of that number.',
          });
        return refuse(ctx, nonce, refusalOf(result.left));
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
