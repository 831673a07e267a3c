import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';

/**
 * The cookies the application keeps; all HttpOnly, SameSite=Lax, Secure over TLS, under
 * /app (`shownOnce` under the one page it is for).
 */
export const COOKIES = {
  /** auth's session credential (`ses_…`): what signing in gives. */
  session: 'esign_session',
  /** A short-lived access token exchanged for the session, for the /v1.1 API. */
  api: 'esign_api',
  /** Which of the user's Sites the pages show. */
  site: 'esign_site',
  /** The sign-in form's anti-forgery value, before there is a session. */
  preSession: 'esign_pre',
  /** Who an accepted invitation just made, for the sign-in page's notice (minutes). */
  joined: 'esign_joined',
  /** A secret a form just made, sealed for the one page that shows it (ADR 3210; 2 minutes). */
  shownOnce: 'esign_shown',
} as const;

export interface CookieSettings {
  readonly secure: boolean;
  readonly path: string;
}

/** Cookie values here are base64url, JWT, JWE or digits: no character needs quoting. */
const SAFE_VALUE = /^[A-Za-z0-9._~-]*$/;

/**
 * Writes a Set-Cookie header. Written by hand rather than through koa's `ctx.cookies`
 * because that refuses `Secure` on a plain connection, which is exactly what a gateway
 * behind a TLS-terminating proxy sees.
 */
export const setCookie = (
  ctx: Koa.Context,
  settings: CookieSettings,
  name: string,
  value: string,
  maxAgeSeconds?: number,
): void => {
  if (!SAFE_VALUE.test(value)) throw new Error(`cookie ${name} holds characters that need quoting`);
  const parts = [
    `${name}=${value}`,
    `Path=${settings.path}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(settings.secure ? ['Secure'] : []),
    ...(maxAgeSeconds === undefined ? [] : [`Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`]),
  ];
  ctx.append('Set-Cookie', parts.join('; '));
};

export const clearCookie = (ctx: Koa.Context, settings: CookieSettings, name: string): void =>
  setCookie(ctx, settings, name, '', 0);

export const readCookie = (ctx: Koa.Context, name: string): string | undefined => {
  const value = ctx.cookies.get(name);
  return value === undefined || value === '' || !SAFE_VALUE.test(value) ? undefined : value;
};

export const randomToken = (): string => randomBytes(32).toString('base64url');

/**
 * The anti-forgery token of a signed-in browser: an HMAC keyed by the session credential.
 * A page on another origin can neither read the HttpOnly cookie nor this page, so it
 * cannot compute the token; leaking the token reveals nothing about the session.
 */
export const csrfTokenOf = (sessionToken: string): string =>
  createHmac('sha256', sessionToken).update('esign-web-csrf').digest('base64url');

export const sameToken = (a: string | undefined, b: string | undefined): boolean => {
  if (a === undefined || b === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * A state-changing request must come from this origin: `Sec-Fetch-Site` (sent by every
 * current browser) must say so, and an `Origin`, when sent, must be ours. The token checks
 * come on top of this; this alone stops a cross-site form even before a session exists.
 */
export const sameOrigin = (ctx: Koa.Context, publicOrigin: string): boolean => {
  const site = ctx.get('sec-fetch-site');
  if (site !== '' && site !== 'same-origin') return false;
  const origin = ctx.get('origin');
  // The public origin (behind a TLS proxy the gateway itself sees plain HTTP), or the
  // address the browser used (127.0.0.1 rather than localhost, say).
  return origin === '' || origin === publicOrigin || origin === `${ctx.protocol}://${ctx.host}`;
};
