import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { OtherSessionsEndedView, SignedInSessionList } from '@esign/contracts';
import { NoContent } from '../api-client.js';
import { visitorOf, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { problemPage, segment } from './common.js';
import { SESSIONS_DONE, sessionsPage } from './sessions-page.js';

/**
 * Where the signed-in user is signed in, and ending any of it (ADR 3100): their sessions
 * (the newest 100), **End** on another one's row, **Sign out everywhere else**. This
 * browser's own row signs out through `/sign-out`, as the header does. Every call carries
 * the session credential: auth ends only the user's own sessions.
 */
export const sessionRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/sessions', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const list = await visitor.self({
      method: 'GET',
      path: '/v1.1/sessions?per_page=100',
      codec: SignedInSessionList,
    });
    if (E.isLeft(list)) return problemPage(ctx, deps, visitor, 'none', list.left);
    sessionsPage(ctx, deps, visitor, list.right);
  });

  // Before `/sessions/:id/end` would see it, though no session's id is `end-others`.
  router.post('/sessions/end-others', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const ended = await form.visitor.self({
      method: 'DELETE',
      path: '/v1.1/sessions/others',
      codec: OtherSessionsEndedView,
    });
    if (E.isLeft(ended)) return problemPage(ctx, deps, form.visitor, 'none', ended.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sessions?done=${SESSIONS_DONE.others}&ended=${ended.right.sessions_ended}`);
  });

  router.post('/sessions/:id/end', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const ended = await form.visitor.self({
      method: 'DELETE',
      path: `/v1.1/sessions/${segment(ctx.params.id)}`,
      codec: NoContent,
    });
    // Already gone (it expired, or another tab ended it): nothing is wrong, the list says so.
    const gone = E.isLeft(ended) && ended.left.status === 404;
    if (E.isLeft(ended) && !gone) return problemPage(ctx, deps, form.visitor, 'none', ended.left);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sessions?done=${gone ? SESSIONS_DONE.gone : SESSIONS_DONE.ended}`);
  });
};
