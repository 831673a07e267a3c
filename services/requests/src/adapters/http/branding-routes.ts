import { createHash } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import * as O from 'fp-ts/lib/Option.js';
import { BrandingBody, PRINCIPAL_HEADER } from '@esign/contracts';
import { decodeBody, integerIdParam, invalidBody, runWith, type AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { BrandingUseCases } from '../../application/branding.js';
import type { Logo } from '../../domain/branding.js';
import { callerOf } from './principal.js';
import { problemOf } from './problems.js';

const run = runWith(problemOf);

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The uploaded logo's bytes and their SHA-256, or a 422 naming the field. */
const logoOf = (body: BrandingBody): Logo | undefined => {
  if (body.logo === undefined) return undefined;
  const data = body.logo.data_base64.replace(/\s+/g, '');
  if (!BASE64.test(data) || data.length % 4 !== 0)
    throw invalidBody([{ path: 'logo.data_base64', message: 'must be base64' }]);
  const png = new Uint8Array(Buffer.from(data, 'base64'));
  return { png, sha256: createHash('sha256').update(png).digest('hex') };
};

/**
 * `GET` / `PUT /v1.1/sites/:id/branding` (token-scoped) and the public logo
 * `GET /sign/logo/:site/:sha256.png` that pages and e-mails show (ADR 2301).
 */
export const mountBrandingRoutes = (
  router: Router<AppState>,
  cases: BrandingUseCases,
  options: { readonly gatewayPublicKey: KeyObject },
): void => {
  const caller = (header: string) => callerOf(options.gatewayPublicKey, header || undefined);

  router.get('/v1.1/sites/:id/branding', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    ctx.body = await run(cases.getBranding(who, integerIdParam(ctx.params.id, 'site')));
  });

  router.put('/v1.1/sites/:id/branding', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const siteId = integerIdParam(ctx.params.id, 'site');
    const body = decodeBody(BrandingBody, ctx);
    ctx.body = await run(cases.putBranding(who, siteId, body, logoOf(body)));
  });

  router.get('/sign/logo/:site/:file', async (ctx) => {
    const site = /^[1-9][0-9]{0,14}$/.test(ctx.params.site ?? '') ? Number(ctx.params.site) : undefined;
    const sha = /^([0-9a-f]{64})\.png$/.exec(ctx.params.file ?? '')?.[1];
    const png = site === undefined || sha === undefined ? O.none : await run(cases.siteLogo(site, sha));
    ctx.set({
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'X-Content-Type-Options': 'nosniff',
      // E-mail clients and proxies load it from other origins.
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    if (O.isNone(png)) {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'No such logo.';
      return;
    }
    // The name is the content's hash: a new logo has a new URL, so this one never changes.
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = 'image/png';
    ctx.body = Buffer.from(png.value);
  });
};
