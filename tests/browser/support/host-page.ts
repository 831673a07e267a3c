import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './web-app.js';

/**
 * A client application's page on its own origin: it loads the workspace's helper
 * (`@esign/client/embedded-signing`, the built ES module) and opens the embedded URL given
 * in its query, keeping every callback in `window.heard`.
 */
const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Client application</title></head>
<body><main aria-label="Client application"><h1>Sign your lease</h1><div id="frame"></div></main>
<script type="module">
import { openEmbeddedSigning } from '/embedded-signing.js';
window.heard = [];
const url = new URLSearchParams(location.search).get('url');
openEmbeddedSigning({ url, container: document.getElementById('frame'), title: 'Sign the lease',
  onMessage: (m) => window.heard.push(m) });
</script></body></html>`;

export const hostServer = async (): Promise<{ server: Server; origin: string }> => {
  const helper = await readFile(join(ROOT, 'libs/client/dist/src/embedded-signing.js'), 'utf8');
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/embedded-signing.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return res.end(helper);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(HOST_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};
