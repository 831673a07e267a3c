import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { eventually } from '@esign/testing';
import { startAuthDouble, type AuthDouble } from '../support/auth-double.js';
import { startGateway, INTROSPECTION_SECRET } from '../support/gateway-under-test.js';
import { json, startHttpDouble, type HttpDouble } from '../support/http-double.js';

/** A notifier stand-in that answers /healthz with `status` and counts its open sockets. */
const startNotifier = async (status: () => number) => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    if (req.url === '/healthz') return json(res, status(), { status: status() === 200 ? 'ok' : 'down' });
    json(res, 200, { upstream: 'notifier' });
  });
  // Keep-alive far longer than the test waits: only the gateway can end the connection.
  server.keepAliveTimeout = 120_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

describe('gateway: the notifier is an upstream like auth and requests', () => {
  let auth: AuthDouble;
  let requests: HttpDouble;
  before(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
    requests = await startHttpDouble((_recorded, res) => json(res, 200, { status: 'ok' }));
  });
  after(async () => {
    await requests.close();
    await auth.close();
  });

  it('names the notifier in /readyz and is not ready while the notifier is not', async () => {
    let notifierStatus = 200;
    const notifier = await startNotifier(() => notifierStatus);
    const gateway = await startGateway({
      authUrl: auth.url,
      requestsUrl: requests.url,
      notifierUrl: notifier.url,
    });
    try {
      const ready = await fetch(`${gateway.opsUrl}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), {
        status: 'ok',
        checks: { auth: 'ok', requests: 'ok', notifier: 'ok' },
      });
      notifierStatus = 503;
      const notReady = await fetch(`${gateway.opsUrl}/readyz`);
      assert.equal(notReady.status, 503);
      assert.deepEqual(await notReady.json(), {
        status: 'unavailable',
        checks: { auth: 'ok', requests: 'ok', notifier: 'notifier answered 503' },
      });
    } finally {
      await gateway.close();
      await notifier.close();
    }
  });

  it('closes its connections to the notifier when it closes', async () => {
    const notifier = await startNotifier(() => 200);
    const gateway = await startGateway(
      { authUrl: auth.url, requestsUrl: requests.url, notifierUrl: notifier.url },
      {},
      {
        routes: [
          { path: '/probe', methods: ['GET'], upstream: 'notifier', access: 'public', cost: 'standard' },
        ],
      },
    );
    try {
      const response = await fetch(`${gateway.url}/probe`);
      assert.deepEqual(await response.json(), { upstream: 'notifier' });
      // The gateway keeps the connection alive for the next call...
      assert.equal(notifier.openSockets(), 1);
    } finally {
      await gateway.close();
    }
    // ...and ends it on close: a pool left open would hold the socket (and the process) on.
    await eventually(() => Promise.resolve(notifier.openSockets() === 0 ? true : undefined), 10_000);
    await notifier.close();
  });
});
