import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import {
  ConsentAnswer,
  OAUTH_CONSENT_PATH,
  OAUTH_REQUEST_PARAMS,
  RedirectView,
  type ConsentView,
} from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { html } from '../html.js';
import { csrfField, problemSummary } from '../layout.js';
import { appPage } from './common.js';

type RequestParams = Partial<Record<(typeof OAUTH_REQUEST_PARAMS)[number], string>>;

/**
 * The browser leaves for the app's callback after "Allow" or "Deny": the page's
 * `form-action` names that one origin besides our own (Chromium applies it to the redirect).
 */
const allowCallback = (ctx: Koa.Context, callback: string): void => {
  const csp = ctx.response.get('Content-Security-Policy');
  const origin = new URL(callback).origin;
  ctx.set('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${origin}`));
};

/** A request that must not go back to the app (unknown client, foreign callback): said here. */
const refusedPage = (ctx: Koa.Context, deps: WebDeps, visitor: Visitor, problem: ApiProblem): void =>
  appPage(ctx, deps, visitor, {
    title: 'Authorization request refused',
    section: 'none',
    status: problem.status,
    body: html`<h1>This app's request cannot be answered</h1>
      <div class="errors" role="alert">
        <p>${problem.detail ?? problem.title}</p>
        <p>Nothing was shared with the app. If you followed a link from it, tell its maker.</p>
      </div>
      <p><a href="${deps.base}/requests">Go to your Requests</a></p>`,
  });

const consentPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  consent: ConsentView,
  params: RequestParams,
  problem?: ApiProblem,
): void => {
  allowCallback(ctx, consent.redirect_uri);
  const callbackHost = new URL(consent.redirect_uri).host;
  appPage(ctx, deps, visitor, {
    title: `Allow ${consent.app_name}?`,
    section: 'none',
    ...(problem ? { status: problem.status } : {}),
    body: html`<h1>Allow ${consent.app_name} to act for you?</h1>
      <p>
        <strong>${consent.app_name}</strong>, an app of the account
        <strong>${consent.owner_account_name}</strong>, asks to use the API as you (${visitor.me.user.email}).
      </p>
      <p>
        It will be able to create, send and read Requests and contract templates on the Sites you allow, until
        you revoke it under Developer Apps, Authorised apps. You will then return to
        <strong>${callbackHost}</strong>.
      </p>
      ${problemSummary(problem, { site_ids: 'site-list' })}
      <form method="post" action="${deps.base}/oauth/authorize" class="panel">
        ${csrfField(visitor.csrf)}
        ${OAUTH_REQUEST_PARAMS.map((name) =>
          params[name] === undefined
            ? ''
            : html`<input type="hidden" name="${name}" value="${params[name]}" />`,
        )}
        ${
          consent.sites.length === 0
            ? html`<p class="notice">You are not a member of any Site, so there is nothing to allow.</p>`
            : html`<fieldset class="checks" id="site-list">
                <legend>Sites it may reach</legend>
                ${consent.sites.map(
                  (s) =>
                    html`<label
                      ><input type="checkbox" name="site_${s.id}" value="on" checked /> ${s.name}
                      <span class="hint">(Site ${s.id})</span></label
                    >`,
                )}
              </fieldset>`
        }
        <div class="actions">
          <button type="submit" name="decision" value="allow">Allow</button>
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
        </div>
      </form>`,
  });
};

const paramsOf = (source: Record<string, unknown>): RequestParams => {
  const params: RequestParams = {};
  for (const name of OAUTH_REQUEST_PARAMS) {
    const value = source[name];
    if (typeof value === 'string') params[name] = value;
  }
  return params;
};

/**
 * The consent page of the service's own OAuth 2.0 authorization experience (issue 24).
 * `GET /oauth/authorize` lands here with its query; a visitor who is not signed in goes
 * to the sign-in page and comes back. Auth decides what may go back to the callback.
 */
export const consentRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/oauth/authorize', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    if (visitor === undefined) return;
    const answer = await visitor.self({
      method: 'GET',
      path: `${OAUTH_CONSENT_PATH}?${ctx.querystring}`,
      codec: ConsentAnswer,
    });
    if (E.isLeft(answer)) return refusedPage(ctx, deps, visitor, answer.left);
    if ('redirect_to' in answer.right) {
      ctx.status = 303;
      ctx.redirect(answer.right.redirect_to);
      return;
    }
    consentPage(ctx, deps, visitor, answer.right, paramsOf(ctx.query));
  });

  router.post('/oauth/authorize', async (ctx) => {
    const form = await posted(ctx, deps);
    if (form === undefined) return;
    const params = paramsOf(form.fields);
    const allow = form.fields.decision === 'allow';
    const siteIds = Object.keys(form.fields)
      .filter((name) => /^site_[1-9][0-9]{0,14}$/.test(name) && form.fields[name] === 'on')
      .map((name) => Number(name.slice('site_'.length)));
    const decided = await form.visitor.self({
      method: 'POST',
      path: OAUTH_CONSENT_PATH,
      body: { request: params, decision: allow ? 'allow' : 'deny', ...(allow ? { site_ids: siteIds } : {}) },
      codec: RedirectView,
    });
    if (E.isRight(decided)) {
      ctx.status = 303;
      ctx.redirect(decided.right.redirect_to);
      return;
    }
    // Shown again with what went wrong (no Site ticked), or refused outright.
    const again = await form.visitor.self({
      method: 'GET',
      path: `${OAUTH_CONSENT_PATH}?${new URLSearchParams(params as Record<string, string>).toString()}`,
      codec: ConsentAnswer,
    });
    if (E.isRight(again) && !('redirect_to' in again.right))
      return consentPage(ctx, deps, form.visitor, again.right, params, decided.left);
    refusedPage(ctx, deps, form.visitor, decided.left);
  });
};
