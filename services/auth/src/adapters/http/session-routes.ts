import type Router from '@koa/router';
import type { OtherSessionsEndedView, SignedInSessionView } from '@esign/contracts';
import type { AppState } from '@esign/platform';
import { authenticateSession } from '../../application/authenticate-session.js';
import type { Deps } from '../../application/deps.js';
import {
  endOtherSessions,
  endSession,
  listSessions,
  type ListedSession,
} from '../../application/sessions.js';
import { bearerOf, pageOf, pageView, run } from './request.js';

const signedInSessionView = (s: ListedSession): SignedInSessionView => ({
  id: s.id,
  created_at: s.createdAt.toISOString(),
  expires_at: s.expiresAt.toISOString(),
  current: s.current,
  client_address: s.clientAddress,
  user_agent: s.userAgent,
  last_active_at: s.lastActiveAt?.toISOString() ?? null,
});

/**
 * Where the user is signed in, and ending any of it (ADR 3100): their sessions, one of
 * them ended, or every one but the session that asks. `/v1.1/sessions/current` and
 * signing in are the self-service routes'; `others` is routed before `:id`.
 */
export const sessionRoutes = (router: Router<AppState>, deps: Deps): void => {
  const session = (header: string | undefined) => run(authenticateSession(deps)(bearerOf(header)));

  router.get('/v1.1/sessions', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const page = pageOf(ctx.query);
    ctx.body = pageView(page, await run(listSessions(deps)(user, page)), signedInSessionView);
  });

  router.delete('/v1.1/sessions/others', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const view: OtherSessionsEndedView = { sessions_ended: await run(endOtherSessions(deps)(user)) };
    ctx.body = view;
  });

  router.delete('/v1.1/sessions/:id', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    await run(endSession(deps)(user, ctx.params.id!));
    ctx.status = 204;
  });
};
