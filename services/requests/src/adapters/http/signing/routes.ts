import type { AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { UseCases } from '../../../application/use-cases.js';
import type { EmbeddedUseCases } from '../../../application/embedded-signing.js';
import { mountSigningActRoutes } from './act-routes.js';
import { mountSignerAuthenticationRoutes } from './code-routes.js';
import { mountSignerDocumentRoutes } from './document-routes.js';
import { mountEmbeddedOpenRoute } from './embedded-open-route.js';
import { signerPageKit } from './page-kit.js';
import { mountSigningPageRoutes } from './page-routes.js';
import { mountReassignRoute } from './reassign-route.js';
import type { SigningRouteOptions } from './signer-http.js';

export { clientIp, drawingOf, SIGNING_FORM_PATHS, type SigningRouteOptions } from './signer-http.js';

/**
 * The signer pages: `GET /sign` shows the contracts and the form, `POST /sign` signs,
 * `POST /sign/decline` declines, `POST /sign/reassign` asks someone else to sign in the
 * signer's place (ADR 3560), `GET /sign/done` says how it ended, `GET /sign/document`
 * serves a PDF contract pre-filled, `GET /sign/copy` the executed one; `POST /sign/verify`
 * and `/sign/code` authenticate the signer, `GET /sign/embedded` opens an embedded page.
 * No session, no cookie: every request carries the Execution URL's signature, and every
 * form a token bound to the signer and the document.
 */
export const mountSigningRoutes = (
  router: Router<AppState>,
  cases: UseCases & Pick<EmbeddedUseCases, 'openEmbeddedUrl' | 'embeddedContext'>,
  options: SigningRouteOptions,
): void => {
  const kit = signerPageKit(cases, options);
  mountSigningPageRoutes(router, cases, kit);
  mountSignerAuthenticationRoutes(router, cases, kit);
  mountSignerDocumentRoutes(router, cases, kit);
  mountEmbeddedOpenRoute(router, cases, kit);
  mountSigningActRoutes(router, cases, kit);
  mountReassignRoute(router, cases, kit);
};
