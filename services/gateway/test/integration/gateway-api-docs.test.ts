// The OpenAPI document and its reference page, served by the real gateway without a
// token, and the page rendered by a real browser from the installed Redoc bundle only.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launchChromium } from '@esign/testing';
import { startGateway, type GatewayUnderTest } from '../support/gateway-under-test.js';

describe('gateway: the OpenAPI document and the reference page', function () {
  this.timeout(90_000);
  let gateway: GatewayUnderTest;

  before(async () => {
    // Nothing behind it answers: the document and the page need no upstream.
    gateway = await startGateway(
      { authUrl: 'http://127.0.0.1:9', requestsUrl: 'http://127.0.0.1:9' },
      { PUBLIC_BASE_URL: 'https://api.esign.example/' },
    );
  });
  after(async () => {
    await gateway?.close();
  });

  it('serves GET /v1.1/openapi.json without a token: OpenAPI 3.1 naming the public address', async () => {
    const response = await fetch(`${gateway.url}/v1.1/openapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const doc = (await response.json()) as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, unknown>;
      webhooks: Record<string, unknown>;
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.servers[0]!.url, 'https://api.esign.example');
    assert.ok(doc.paths['/v1.1/sites/{site_id}/requests']);
    assert.ok(doc.webhooks['request.completed']);

    const etag = response.headers.get('etag');
    assert.ok(etag);
    const again = await fetch(`${gateway.url}/v1.1/openapi.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal((await fetch(`${gateway.url}/v1.1/openapi.json`, { method: 'HEAD' })).status, 200);
  });

  it('serves GET /docs with a strict policy, and Redoc from the installed package', async () => {
    const page = await fetch(`${gateway.url}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self' blob:;/);
    const html = await page.text();
    assert.match(html, /<script src="docs\/redoc\.standalone\.js"><\/script>/);
    assert.doesNotMatch(html, /https?:\/\//, 'nothing from another origin');
    const bundle = await fetch(`${gateway.url}/docs/redoc.standalone.js`);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
    assert.ok((await bundle.arrayBuffer()).byteLength > 100_000);
  });

  it('still refuses other unknown paths and methods as before', async () => {
    assert.equal((await fetch(`${gateway.url}/docs/other.js`)).status, 404);
    assert.equal((await fetch(`${gateway.url}/v1.1/openapi.yaml`)).status, 404);
  });

  it('renders the reference page in a browser, fetching nothing but the gateway', async () => {
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // What actually loaded: Redoc's footer asks for its logo from a CDN, which the page's
      // own Content-Security-Policy refuses (that request fails rather than finishes).
      const loaded: string[] = [];
      tab.on('requestfinished', (request) => loaded.push(request.url()));
      await tab.goto(`${gateway.url}/docs`);
      await tab.getByRole('heading', { name: 'Create a Request' }).waitFor({ timeout: 60_000 });
      await tab.getByRole('heading', { name: 'request.completed' }).waitFor({ timeout: 30_000 });
      mkdirSync('test-results', { recursive: true });
      await tab.screenshot({ path: 'test-results/api-reference.png' });
      const foreign = loaded.filter(
        (url) => !url.startsWith(gateway.url) && !url.startsWith('blob:') && !url.startsWith('data:'),
      );
      assert.deepEqual(foreign, [], 'the page loads nothing from another origin');
      assert.ok(loaded.some((url) => url.endsWith('/v1.1/openapi.json')));
    } finally {
      await browser.close();
    }
  });
});
