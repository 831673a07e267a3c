import { createHash, timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import { INTROSPECTION_PATH, IntrospectionRequest } from '@esign/contracts';
import { unauthorized, type AppState } from '@esign/platform';
import type { Deps } from '../../application/deps.js';
import { introspectToken } from '../../application/introspect-token.js';
import { bearerOf, bodyOf, run } from './request.js';

// Digests have one length, so the comparison takes the same time whatever was sent.
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * `POST /internal/introspect`: the gateway's question, authenticated with the
 * introspection credential that only the gateway and auth hold (ADR 1310).
 */
export const internalRoutes = (router: Router<AppState>, deps: Deps, introspectionSecret: string): void => {
  const expected = digest(introspectionSecret);
  router.post(INTROSPECTION_PATH, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const presented = bearerOf(ctx.get('authorization'));
    if (presented === undefined || !timingSafeEqual(digest(presented), expected))
      throw unauthorized('The internal credential is missing or wrong.');
    const body = bodyOf(IntrospectionRequest, ctx);
    ctx.body = await run(introspectToken(deps)(body.token_id));
  });
};
