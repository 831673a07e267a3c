import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as t from 'io-ts';
import { apiClient } from '../../src/api-client.js';
import { asCaller } from '../../src/caller.js';

const SECRET = 'the-web-applications-secret-for-this-test-0123';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BROWSER = { peer: '203.0.113.7', forwardedFor: undefined, userAgent: CHROME };

describe('web: the browser behind each API call (ADR 3010, ADR 3100)', () => {
  let server: Server;
  let base: string;
  const received: IncomingHttpHeaders[] = [];

  before(async () => {
    server = createServer((req, res) => {
      received.push(req.headers);
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (received.length = 0));

  const call = (client: ReturnType<typeof apiClient>) =>
    client.call({ method: 'POST', path: '/v1.1/sessions', body: {}, codec: t.unknown });

  it('sends the browser’s User-Agent with its peer during a page’s work, not fetch’s own', async () => {
    await asCaller(BROWSER, () => call(apiClient(base, undefined, SECRET)));
    assert.equal(received[0]?.['user-agent'], CHROME);
    assert.equal(received[0]?.['x-esign-web-peer'], '203.0.113.7');
    assert.equal(received[0]?.['x-esign-web-client'], SECRET);
  });

  it('sends nothing of the browser outside a page’s work, or without the secret', async () => {
    await call(apiClient(base, undefined, SECRET));
    await asCaller(BROWSER, () => call(apiClient(base)));
    assert.equal(received.length, 2);
    for (const headers of received) {
      assert.notEqual(headers['user-agent'], CHROME);
      assert.equal(headers['x-esign-web-peer'], undefined);
      assert.equal(headers['x-esign-web-client'], undefined);
    }
  });

  it('leaves fetch’s own User-Agent when the browser sent none', async () => {
    await asCaller({ ...BROWSER, userAgent: undefined }, () => call(apiClient(base, undefined, SECRET)));
    assert.equal(received[0]?.['x-esign-web-peer'], '203.0.113.7');
    assert.notEqual(received[0]?.['user-agent'], CHROME);
  });
});
