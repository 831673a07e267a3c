import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { SessionView } from '@esign/contracts';
import { NoContent, type ApiProblem } from '../api-client.js';
import { clearCookie, COOKIES, readCookie, setCookie } from '../cookies.js';
import { forget, type WebDeps } from '../context.js';
import { postedAnonymously, preSessionToken } from '../guard.js';
import { html } from '../html.js';
import { fieldErrors, page, problemSummary, signInEmailField, textField } from '../layout.js';
import { joinedOf } from './accept-invitation.js';

const REASONS: Record<string, string> = {
  ended: 'Your session has ended. Sign in again to continue.',
  out: 'You are signed out.',
  password:
    'Your password was changed and you were signed out everywhere. Sign in with the new password. ' +
    'Access tokens and client secrets made before no longer work: make new ones for your integrations.',
  joined:
    'You joined the account. Sign in with the e-mail address the invitation was sent to and the password you chose.',
};

/** Only a path inside the application may follow sign-in: never another site. */
const nextPath = (deps: WebDeps, raw: string | undefined): string =>
  raw !== undefined && raw.startsWith(`${deps.base}/`) && !raw.startsWith('//') && !/[\\\s]/.test(raw)
    ? raw
    : `${deps.base}/requests`;

const signInPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  input: { email?: string; next?: string; problem?: ApiProblem; notice?: string },
): string => {
  const pre = preSessionToken(ctx, deps);
  const errors = fieldErrors(input.problem);
  // A wrong e-mail/password pair names no field; the message belongs to both.
  const credentials =
    input.problem?.code === 'invalid_credentials'
      ? 'The e-mail address or the password is wrong.'
      : undefined;
  return page({
    base: deps.base,
    title: 'Sign in',
    body: html` <h1>Sign in</h1>
      ${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
      ${problemSummary(input.problem, { email: 'email', password: 'password' })}
      <form method="post" action="${deps.base}/sign-in" novalidate class="panel">
        <input type="hidden" name="_csrf" value="${pre}" />
        <input type="hidden" name="next" value="${input.next ?? ''}" />
        ${signInEmailField(input.email ?? '', errors.get('email'))}
        ${textField({
          id: 'password',
          name: 'password',
          label: 'Password',
          type: 'password',
          autocomplete: 'current-password',
          required: true,
          error: errors.get('password') ?? credentials,
        })}
        <button type="submit">Sign in</button>
        <span class="hint" role="status" data-busy-status></span>
      </form>
      <p><a href="${deps.base}/forgot-password">Forgotten your password?</a></p>`,
  });
};

export const signInRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/', (ctx) => {
    ctx.redirect(readCookie(ctx, COOKIES.session) ? `${deps.base}/requests` : `${deps.base}/sign-in`);
  });

  router.get('/sign-in', (ctx) => {
    const key = typeof ctx.query.reason === 'string' ? ctx.query.reason : undefined;
    // After accepting an invitation (ADR 3030): who was made, from this browser's own cookie.
    const joined = key === 'joined' ? joinedOf(ctx) : undefined;
    const reason = joined
      ? `You joined ${joined.account}${joined.admin ? ' as an admin' : ''}. Sign in as ${joined.email}.`
      : key !== undefined && Object.hasOwn(REASONS, key)
        ? REASONS[key]
        : undefined;
    ctx.body = signInPage(ctx, deps, {
      next: typeof ctx.query.next === 'string' ? ctx.query.next : '',
      ...(reason === undefined ? {} : { notice: reason }),
      ...(joined === undefined ? {} : { email: joined.email }),
    });
  });

  router.post('/sign-in', async (ctx) => {
    const fields = await postedAnonymously(ctx, deps);
    const email = (fields.email ?? '').trim();
    const signedIn = await deps.api.call({
      method: 'POST',
      path: '/v1.1/sessions',
      body: { email, password: fields.password ?? '' },
      codec: SessionView,
    });
    if (E.isLeft(signedIn)) {
      ctx.status = signedIn.left.status;
      ctx.body = signInPage(ctx, deps, { email, next: fields.next ?? '', problem: signedIn.left });
      return;
    }
    const lifetime = (Date.parse(signedIn.right.expires_at) - Date.now()) / 1000;
    setCookie(ctx, deps.cookies, COOKIES.session, signedIn.right.session_token, lifetime);
    clearCookie(ctx, deps.cookies, COOKIES.api);
    clearCookie(ctx, deps.cookies, COOKIES.preSession);
    if (readCookie(ctx, COOKIES.joined) !== undefined) clearCookie(ctx, deps.cookies, COOKIES.joined);
    ctx.status = 303;
    ctx.redirect(nextPath(deps, fields.next));
  });

  router.post('/sign-out', async (ctx) => {
    await postedAnonymously(ctx, deps);
    const session = readCookie(ctx, COOKIES.session);
    // Ending the session also ends the access token exchanged for it (auth ties them).
    if (session !== undefined)
      await deps.api.call({
        method: 'DELETE',
        path: '/v1.1/sessions/current',
        bearer: session,
        codec: NoContent,
      });
    forget(ctx, deps);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sign-in?reason=out`);
  });
};
