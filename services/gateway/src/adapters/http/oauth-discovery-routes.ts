import type Router from '@koa/router';
import { authorizationServerMetadata, OAUTH_AUTHORIZE_PATH, OAUTH_METADATA_PATH } from '@esign/contracts';
import type { AppState } from '@esign/platform';

/**
 * The public face of the authorization-code grant (issue 24, ADR 2400):
 * `GET /.well-known/oauth-authorization-server` (RFC 8414, built from PUBLIC_BASE_URL,
 * which is the issuer) and `GET /oauth/authorize`, which hands the request, query and
 * all, to the web application's consent page (where the user's session cookie lives).
 */
export const mountOAuthDiscovery = (
  router: Router<AppState>,
  options: { readonly publicBaseUrl: string; readonly consentPath: string },
): void => {
  const metadata = JSON.stringify(authorizationServerMetadata(options.publicBaseUrl));
  router.get(OAUTH_METADATA_PATH, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.type = 'application/json';
    ctx.body = metadata;
  });
  router.get(OAUTH_AUTHORIZE_PATH, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`${options.consentPath}${ctx.querystring === '' ? '' : `?${ctx.querystring}`}`);
  });
};
