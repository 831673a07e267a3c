import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { PasswordChangedView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { forget, visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, textField } from '../layout.js';
import { appPage } from './common.js';
import { NEW_PASSWORD_FIELD_IDS, newPasswordFields, newPasswordsDiffer } from './new-password-fields.js';

const FIELD_IDS = { current_password: 'current-password', ...NEW_PASSWORD_FIELD_IDS };

const passwordPage = (ctx: Koa.Context, deps: WebDeps, visitor: Visitor, found?: ApiProblem): void => {
  const errors = fieldErrors(found);
  appPage(ctx, deps, visitor, {
    title: 'Change password',
    section: 'none',
    ...(found === undefined ? {} : { status: found.status }),
    body: html`<h1>Change password</h1>
      <p>
        Changing your password signs you out everywhere, this browser included. It also revokes every access
        token you made, removes your apps' client secrets and stops the apps you authorised: integrations need
        new tokens afterwards. Use it too if you think someone else knows your password.
      </p>
      <p>
        To sign out one browser only, end its session on
        <a href="${deps.base}/sessions">where you are signed in</a>.
      </p>
      ${problemSummary(found, FIELD_IDS)}
      <form method="post" action="${deps.base}/password" novalidate class="panel">
        ${csrfField(visitor.csrf)}
        <input type="text" name="username" value="${visitor.me.user.email}" autocomplete="username" hidden />
        ${textField({
          id: FIELD_IDS.current_password,
          name: 'current_password',
          label: 'Current password',
          type: 'password',
          autocomplete: 'current-password',
          required: true,
          error: errors.get('current_password'),
        })}
        ${newPasswordFields(errors)}
        <button type="submit">Change password</button>
        <span class="hint" role="status" data-busy-status></span>
      </form>`,
  });
};

/**
 * The signed-in user's own password (ADR 2980): the current one, the new one twice. The
 * API ends every session on success, so the page forgets this browser's session and
 * sends it to sign in again.
 */
export const passwordRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/password', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    passwordPage(ctx, deps, visitor);
  });

  router.post('/password', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const differs = newPasswordsDiffer(form.fields);
    if (differs !== undefined) return passwordPage(ctx, deps, form.visitor, differs);
    const changed = await form.visitor.self({
      method: 'POST',
      path: '/v1.1/sessions/current/password',
      body: {
        current_password: form.fields.current_password ?? '',
        new_password: form.fields.new_password ?? '',
      },
      codec: PasswordChangedView,
    });
    if (E.isLeft(changed)) return passwordPage(ctx, deps, form.visitor, changed.left);
    forget(ctx, deps);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sign-in?reason=password`);
  });
};
