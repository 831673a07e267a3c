import type Router from '@koa/router';
import { JWKS_PATH } from '@esign/contracts';
import type { AppState } from '@esign/platform';
import type { Deps } from '../../application/deps.js';
import { publishKeys } from '../../application/signing-keys.js';
import { run } from './request.js';

/**
 * Verifiers may cache the key set this long. A rotated key is published well before it
 * signs (see the rotate-key command), so a cache this old still knows it.
 */
export const JWKS_MAX_AGE_SECONDS = 60;

export const jwksRoutes = (router: Router<AppState>, deps: Deps): void => {
  router.get(JWKS_PATH, async (ctx) => {
    ctx.set('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
    ctx.body = await run(publishKeys(deps));
  });
};
