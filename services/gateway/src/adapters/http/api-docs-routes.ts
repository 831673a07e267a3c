import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import { openApiDocument, type Examples } from '@esign/contracts/openapi';
import type { AppContext, AppState } from '@esign/platform';

export const OPENAPI_PATH = '/v1.1/openapi.json';
export const DOCS_PATH = '/docs';
const REDOC_PATH = '/docs/redoc.standalone.js';

// Redoc renders in the browser from its own standalone bundle, served from the installed
// package: the page loads nothing from a CDN. It styles with inline <style> and parses the
// document in a blob: worker, hence those two allowances and nothing else.
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self' blob:",
  'worker-src blob:',
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

// Relative addresses, so the page works wherever the gateway is mounted.
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>E-signature API reference</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="v1.1/openapi.json" hide-download-button="false" expand-responses="200,201"></redoc>
<script src="docs/redoc.standalone.js"></script>
</body>
</html>
`;

const etagOf = (body: string | Buffer): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/**
 * `GET /v1.1/openapi.json` (the document, generated once at start-up from the codecs) and
 * `GET /docs` (its reference page). Public: the document describes the API, it grants nothing.
 */
export const mountApiDocs = (
  router: Router<AppState>,
  options: { readonly serverUrl: string; readonly examples?: Examples },
): void => {
  const document = JSON.stringify(
    openApiDocument({
      serverUrl: options.serverUrl.replace(/\/+$/, ''),
      ...(options.examples && { examples: options.examples }),
    }),
  );
  const documentTag = etagOf(document);
  const redoc = readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'));
  const redocTag = etagOf(redoc);

  const serve =
    (body: string | Buffer, type: string, etag: string, maxAge: number) =>
    (ctx: AppContext): void => {
      ctx.set('Cache-Control', `public, max-age=${maxAge}`);
      ctx.set('ETag', etag);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = type;
      if (ctx.get('if-none-match') === etag) {
        ctx.status = 304;
        return;
      }
      ctx.body = body;
    };

  router.get(OPENAPI_PATH, serve(document, 'application/json', documentTag, 300));
  router.get(REDOC_PATH, serve(redoc, 'text/javascript', redocTag, 86_400));
  const page = serve(DOCS_PAGE, 'text/html; charset=utf-8', etagOf(DOCS_PAGE), 300);
  router.get(DOCS_PATH, (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    page(ctx);
  });
};
