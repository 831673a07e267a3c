import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { PasswordChangedView, PasswordResetRequestedView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { forget, type WebDeps } from '../context.js';
import { postedAnonymously, preSessionToken } from '../guard.js';
import { html } from '../html.js';
import { fieldErrors, page, problemSummary, signInEmailField } from '../layout.js';
import { NEW_PASSWORD_FIELD_IDS, newPasswordFields, newPasswordsDiffer } from './new-password-fields.js';

const forgotPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  input: { email?: string; problem?: ApiProblem; sent?: { email: string; minutes: number } },
): string => {
  const pre = preSessionToken(ctx, deps);
  const errors = fieldErrors(input.problem);
  return page({
    base: deps.base,
    title: 'Forgotten password',
    body: html`<h1>Forgotten password</h1>
      ${
        input.sent
          ? html`<p class="success" role="status">
              If a user has the address ${input.sent.email}, a link to choose a new password is on its way to
              it. It works once, for ${input.sent.minutes} minutes. Nothing arrived? Look in the spam folder,
              or ask again.
            </p>`
          : html`<p>
              Enter the e-mail address you sign in with. We will send a link to choose a new password.
            </p>`
      }
      ${problemSummary(input.problem, { email: 'email' })}
      <form method="post" action="${deps.base}/forgot-password" novalidate class="panel">
        <input type="hidden" name="_csrf" value="${pre}" />
        ${signInEmailField(input.email ?? '', errors.get('email'))}
        <button type="submit">Send the link</button>
        <span class="hint" role="status" data-busy-status></span>
      </form>
      <p><a href="${deps.base}/sign-in">Back to sign in</a></p>`,
  });
};

const resetPage = (ctx: Koa.Context, deps: WebDeps, token: string, found?: ApiProblem): string => {
  const pre = preSessionToken(ctx, deps);
  const errors = fieldErrors(found);
  const deadLink = found?.code === 'invalid_reset_token';
  return page({
    base: deps.base,
    title: 'Choose a new password',
    body: html`<h1>Choose a new password</h1>
      ${
        deadLink
          ? html`<div class="errors" role="alert">
                <p>${found.detail ?? found.title}</p>
              </div>
              <p><a href="${deps.base}/forgot-password">Ask for a new link</a></p>`
          : html`<p>
                Choosing a new password signs you out everywhere and stops the access tokens and client
                secrets you made.
              </p>
              ${problemSummary(found, NEW_PASSWORD_FIELD_IDS)}
              <form method="post" action="${deps.base}/reset-password" novalidate class="panel">
                <input type="hidden" name="_csrf" value="${pre}" />
                <input type="hidden" name="token" value="${token}" />
                ${newPasswordFields(errors)}
                <button type="submit">Set the new password</button>
                <span class="hint" role="status" data-busy-status></span>
              </form>`
      }`,
  });
};

/**
 * A forgotten password (ADR 3000): ask for a link by e-mail, then choose a new password
 * on the page the link opens. Neither needs a session; both forms carry the pre-session
 * anti-forgery token, as sign-in does. The link's token stays in the form, never in a
 * URL this page sends anywhere (`Referrer-Policy: same-origin`, no third-party content).
 */
export const passwordResetRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/forgot-password', (ctx) => {
    ctx.body = forgotPage(ctx, deps, {});
  });

  router.post('/forgot-password', async (ctx) => {
    const fields = await postedAnonymously(ctx, deps);
    const email = (fields.email ?? '').trim();
    const asked = await deps.api.call({
      method: 'POST',
      path: '/v1.1/password-resets',
      body: { email },
      codec: PasswordResetRequestedView,
    });
    if (E.isLeft(asked)) {
      ctx.status = asked.left.status;
      ctx.body = forgotPage(ctx, deps, { email, problem: asked.left });
      return;
    }
    ctx.body = forgotPage(ctx, deps, {
      email,
      sent: { email, minutes: Math.round(asked.right.expires_in / 60) },
    });
  });

  router.get('/reset-password', (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    ctx.body = resetPage(ctx, deps, token);
  });

  router.post('/reset-password', async (ctx) => {
    const fields = await postedAnonymously(ctx, deps);
    const token = fields.token ?? '';
    const differs = newPasswordsDiffer(fields);
    if (differs !== undefined) {
      ctx.status = 422;
      ctx.body = resetPage(ctx, deps, token, differs);
      return;
    }
    const changed = await deps.api.call({
      method: 'POST',
      path: '/v1.1/password-resets/confirm',
      body: { token, new_password: fields.new_password ?? '' },
      codec: PasswordChangedView,
    });
    if (E.isLeft(changed)) {
      ctx.status = changed.left.status;
      ctx.body = resetPage(ctx, deps, token, changed.left);
      return;
    }
    // Every session ended, this browser's too if it had one.
    forget(ctx, deps);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sign-in?reason=password`);
  });
};
