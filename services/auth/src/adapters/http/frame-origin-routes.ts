import type Router from '@koa/router';
import { FrameOriginsBody } from '@esign/contracts';
import type { AppContext, AppState } from '@esign/platform';
import { authenticateSession } from '../../application/authenticate-session.js';
import type { Deps } from '../../application/deps.js';
import { getFrameOrigins, setFrameOrigins } from '../../application/frame-origins.js';
import type { SessionUser } from '../../domain/model.js';
import { bearerOf, bodyOf, run } from './request.js';

/**
 * `GET` / `PUT /v1.1/apps/:id/frame_origins`: the origins that may frame the embedded
 * signing page opened through this app's tokens (ADR 2300). Session-authenticated, like
 * every `/v1.1/apps` route.
 */
export const frameOriginRoutes = (router: Router<AppState>, deps: Deps): void => {
  const session = (ctx: AppContext): Promise<SessionUser> =>
    run(authenticateSession(deps)(bearerOf(ctx.get('authorization'))));

  router.get('/v1.1/apps/:id/frame_origins', async (ctx) => {
    const user = await session(ctx);
    ctx.body = await run(getFrameOrigins(deps)(user.userId, ctx.params.id!));
  });

  router.put('/v1.1/apps/:id/frame_origins', async (ctx) => {
    const user = await session(ctx);
    const body = bodyOf(FrameOriginsBody, ctx);
    ctx.body = await run(setFrameOrigins(deps)(user.userId, ctx.params.id!, body.allowed_frame_origins));
  });
};
