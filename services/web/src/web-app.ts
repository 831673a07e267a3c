import Router from '@koa/router';
import type Koa from 'koa';
import { apiClient, type ApiClient } from './api-client.js';
import { asCaller, type Caller } from './caller.js';
import { APP_CSS } from './assets/app-css.js';
import { APP_JS } from './assets/app-js.js';
import type { WebDeps } from './context.js';
import { WebError } from './guard.js';
import { html } from './html.js';
import { page } from './layout.js';
import { activityRoutes } from './pages/activity.js';
import { acceptInvitationRoutes } from './pages/accept-invitation.js';
import { appRoutes } from './pages/apps.js';
import { authorizedAppRoutes } from './pages/authorized-apps.js';
import { consentRoutes } from './pages/oauth-consent.js';
import { appFrameOriginRoutes } from './pages/app-frame-origins.js';
import { brandingRoutes } from './pages/branding.js';
import { bulkSendRoutes } from './pages/bulk-sends.js';
import { passwordRoutes } from './pages/password.js';
import { passwordResetRoutes } from './pages/password-reset.js';
import { requestRoutes } from './pages/requests.js';
import { sessionRoutes } from './pages/sessions.js';
import { signInRoutes } from './pages/sign-in.js';
import { siteRoutes } from './pages/sites.js';
import { signerRoutes } from './pages/signers.js';
import { templateRoutes } from './pages/templates.js';
import { userRoutes } from './pages/users.js';
import { verifyRoutes } from './pages/verify.js';
import { webhookRoutes } from './pages/webhooks.js';

export interface WebAppOptions {
  /** Where the API answers: the gateway's own address (the app is one more client of it). */
  readonly apiBaseUrl: string;
  /** The public address (PUBLIC_BASE_URL): decides `Secure` cookies and the expected `Origin`. */
  readonly publicBaseUrl: string;
  /** Mount point; `/app`. */
  readonly base?: string;
  /** Tests may hand in their own client. */
  readonly api?: ApiClient;
  /**
   * The gateway's secret for naming the browser behind each API call, and how to read the
   * browser from a page's request (ADR 3010). Without it the API sees one caller.
   */
  readonly caller?: {
    readonly secret: string;
    readonly of: (ctx: Koa.Context) => Caller;
  };
}

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'X-Robots-Tag': 'noindex',
};

const errorPage = (deps: WebDeps, status: number, message: string): string =>
  page({
    base: deps.base,
    title: status === 404 ? 'Not found' : 'Something went wrong',
    body: html`<h1>${status === 404 ? 'Not found' : status === 403 ? 'Refused' : 'Something went wrong'}</h1>
      <div class="errors" role="alert"><p>${message}</p></div>
      <p><a href="${deps.base}/requests">Go to your Requests</a></p>`,
  });

/**
 * The web application as one koa middleware: it answers `/app` and everything under it
 * and passes every other path on (to the gateway's API routes). Pages are rendered on
 * the server and work without script; every piece of data comes from the public API.
 */
export const createWebApp = (options: WebAppOptions): Koa.Middleware => {
  const base = options.base ?? '/app';
  const publicUrl = new URL(options.publicBaseUrl);
  const deps: WebDeps = {
    api: options.api ?? apiClient(options.apiBaseUrl, undefined, options.caller?.secret),
    base,
    cookies: { secure: publicUrl.protocol === 'https:', path: base },
    publicOrigin: publicUrl.origin,
  };
  const router = new Router({ prefix: base });
  router.get('/assets/app.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = APP_CSS;
  });
  router.get('/assets/app.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = APP_JS;
  });
  signInRoutes(router, deps);
  appRoutes(router, deps);
  authorizedAppRoutes(router, deps);
  consentRoutes(router, deps);
  appFrameOriginRoutes(router, deps);
  brandingRoutes(router, deps);
  webhookRoutes(router, deps);
  templateRoutes(router, deps);
  requestRoutes(router, deps);
  signerRoutes(router, deps);
  activityRoutes(router, deps);
  bulkSendRoutes(router, deps);
  siteRoutes(router, deps);
  userRoutes(router, deps);
  passwordRoutes(router, deps);
  sessionRoutes(router, deps);
  passwordResetRoutes(router, deps);
  acceptInvitationRoutes(router, deps);
  verifyRoutes(router, deps);
  const routes = router.routes();

  const done = (): Promise<void> => Promise.resolve();
  return async (ctx, next) => {
    if (ctx.path !== base && !ctx.path.startsWith(`${base}/`)) {
      await next();
      return;
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) ctx.set(name, value);
    ctx.set('Cache-Control', 'no-store');
    try {
      const route = async (): Promise<void> => {
        await routes(ctx as Parameters<typeof routes>[0], done);
      };
      await (options.caller === undefined ? route() : asCaller(options.caller.of(ctx), route));
      if (ctx.body === undefined && ctx.status === 404) {
        ctx.status = 404;
        ctx.type = 'html';
        ctx.body = errorPage(deps, 404, 'There is no page at this address.');
      } else if (typeof ctx.body === 'string' && ctx.type === '') ctx.type = 'html';
    } catch (error) {
      const status =
        error instanceof WebError ? error.status : ((error as { status?: number }).status ?? 500);
      const known = error instanceof WebError || (status >= 400 && status < 500);
      if (!known) ctx.app.emit('error', error, ctx);
      ctx.status = known ? status : 503;
      ctx.type = 'html';
      ctx.body = errorPage(
        deps,
        ctx.status,
        known
          ? (error as Error).message
          : 'The service could not answer just now. Please try again in a moment.',
      );
    }
  };
};
