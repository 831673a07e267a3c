import { hkdfSync } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type Koa from 'koa';
import { COOKIES, readCookie, setCookie } from './cookies.js';
import type { WebDeps } from './context.js';

/** Long enough for the redirect the form's answer asks for; too short to matter after. */
const LIFETIME_SECONDS = 120;

/**
 * The sealing key: derived from the browser's session credential, so only the session
 * that made the secret can open it, and it opens nothing once that session has ended.
 */
const keyOf = (sessionToken: string): Uint8Array =>
  new Uint8Array(hkdfSync('sha256', sessionToken, '', 'esign-web-shown-once', 32));

/** The cookie lives at the page that shows it, and the browser sends it nowhere else. */
const cookieAt = (deps: WebDeps, page: string) => ({ ...deps.cookies, path: page });

/**
 * A form that makes a secret (an access token, a webhook's signing secret) answers with a
 * redirect to the page that shows it (ADR 3210), so reloading that page shows a page, not
 * a prompt to post the form again and make a second secret. The secret travels in this
 * cookie: sealed (JWE, `dir` + A256GCM) with a key only this session has, bound to that
 * page (`aud`), and good for two minutes.
 */
export const handOver = async (
  ctx: Koa.Context,
  deps: WebDeps,
  sessionToken: string,
  page: string,
  value: Record<string, unknown>,
): Promise<void> => {
  const sealed = await new EncryptJWT({ shown: value })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setAudience(page)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_SECONDS}s`)
    .encrypt(keyOf(sessionToken));
  setCookie(ctx, cookieAt(deps, page), COOKIES.shownOnce, sealed, LIFETIME_SECONDS);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.redirect(page);
};

/**
 * What `handOver` sealed for this page and this session, once: the cookie is cleared as
 * it is read, so a reload shows the page without it. Anything else (another session's,
 * another page's, expired, tampered with, not of the shape asked for) is nothing.
 */
export const takeOver = async <A>(
  ctx: Koa.Context,
  deps: WebDeps,
  sessionToken: string,
  page: string,
  codec: t.Decoder<unknown, A>,
): Promise<A | undefined> => {
  const sealed = readCookie(ctx, COOKIES.shownOnce);
  if (sealed === undefined) return undefined;
  setCookie(ctx, cookieAt(deps, page), COOKIES.shownOnce, '', 0);
  try {
    const { payload } = await jwtDecrypt(sealed, keyOf(sessionToken), {
      audience: page,
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      requiredClaims: ['exp'],
    });
    const decoded = codec.decode(payload.shown);
    if (E.isLeft(decoded)) return undefined;
    // A page that shows a secret must not be kept by the browser or any cache.
    ctx.set('Cache-Control', 'no-store');
    return decoded.right;
  } catch {
    return undefined;
  }
};
