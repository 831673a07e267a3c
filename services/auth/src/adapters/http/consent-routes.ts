import type Router from '@koa/router';
import {
  ConsentDecisionBody,
  OAUTH_AUTHORIZATIONS_PATH,
  OAUTH_CONSENT_PATH,
  OAUTH_REQUEST_PARAMS,
  type AuthorizationView,
  type ConsentAnswer,
  type RedirectView,
} from '@esign/contracts';
import type { AppContext, AppState } from '@esign/platform';
import { authenticateSession } from '../../application/authenticate-session.js';
import { listAuthorizations, revokeAuthorization } from '../../application/authorizations.js';
import type { Deps } from '../../application/deps.js';
import { checkConsent, decideConsent } from '../../application/oauth-authorize.js';
import type { RawParams } from '../../domain/oauth.js';
import { bearerOf, bodyOf, pageOf, pageView, run } from './request.js';

/** The authorization request's own parameters; anything else the client sent is ignored (§3.1). */
const requestParams = (source: Record<string, unknown>): RawParams => {
  const params: Record<string, string | readonly string[]> = {};
  for (const name of OAUTH_REQUEST_PARAMS) {
    const value = source[name];
    if (typeof value === 'string') params[name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) params[name] = value;
  }
  return params;
};

/**
 * What the consent page of the web application asks (issue 24): session-authenticated,
 * like `/v1.1/apps`. The page never decides anything itself: which errors may go back to
 * the callback, and what a decision sends there, is decided here.
 */
export const consentRoutes = (router: Router<AppState>, deps: Deps): void => {
  const session = (ctx: AppContext) => run(authenticateSession(deps)(bearerOf(ctx.get('authorization'))));

  router.get(OAUTH_CONSENT_PATH, async (ctx) => {
    const user = await session(ctx);
    const outcome = await run(checkConsent(deps)(user, requestParams(ctx.query)));
    const view: ConsentAnswer =
      outcome.kind === 'redirect'
        ? { redirect_to: outcome.redirectTo }
        : {
            client_id: outcome.consent.request.app.id,
            app_name: outcome.consent.request.app.name,
            owner_account_name: outcome.consent.ownerAccountName,
            redirect_uri: outcome.consent.request.redirectUri,
            sites: [...outcome.consent.sites],
          };
    ctx.body = view;
  });

  router.post(OAUTH_CONSENT_PATH, async (ctx) => {
    const user = await session(ctx);
    const body = bodyOf(ConsentDecisionBody, ctx);
    const decided = await run(
      decideConsent(deps)({
        session: user,
        params: requestParams(body.request),
        allow: body.decision === 'allow',
        ...(body.site_ids === undefined ? {} : { siteIds: body.site_ids }),
      }),
    );
    const view: RedirectView = { redirect_to: decided.redirectTo };
    ctx.body = view;
  });

  router.get(OAUTH_AUTHORIZATIONS_PATH, async (ctx) => {
    const user = await session(ctx);
    const page = pageOf(ctx.query);
    ctx.body = pageView(page, await run(listAuthorizations(deps)(user, page)), (a): AuthorizationView => ({
      client_id: a.appId,
      app_name: a.appName,
      owner_account_name: a.ownerAccountName,
      site_ids: [...a.siteIds],
      authorized_at: a.authorizedAt.toISOString(),
    }));
  });

  router.delete(`${OAUTH_AUTHORIZATIONS_PATH}/:client_id`, async (ctx) => {
    const user = await session(ctx);
    await run(revokeAuthorization(deps)(user, ctx.params.client_id!));
    ctx.status = 204;
  });
};
