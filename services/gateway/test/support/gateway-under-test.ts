import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redisKeyPrefix, redisUrl, testGatewayKeys, testLogger } from '@esign/testing';
import { decodeGatewayConfig, type Config } from '../../src/config.js';
import { startGatewayService, type GatewayOverrides } from '../../src/service.js';

export const INTROSPECTION_SECRET = 'test-internal-secret-0123456789abcdef';

export interface GatewayUnderTest {
  readonly url: string;
  /** The operations port: `/readyz`, `/metrics` (L12). */
  readonly opsUrl: string;
  readonly config: Config;
  readonly server: Server;
  close(): Promise<void>;
}

/** The real gateway on an ephemeral port, in front of the given upstreams. */
export const startGateway = async (
  upstreams: { readonly authUrl: string; readonly requestsUrl: string; readonly notifierUrl?: string },
  env: Record<string, string> = {},
  overrides: GatewayOverrides = {},
): Promise<GatewayUnderTest> => {
  const config = decodeGatewayConfig({
    AUTH_URL: upstreams.authUrl,
    REQUESTS_URL: upstreams.requestsUrl,
    NOTIFIER_URL: upstreams.notifierUrl ?? upstreams.requestsUrl,
    INTROSPECTION_SECRET,
    PRINCIPAL_SIGNING_KEY: testGatewayKeys.signingKeyEnv,
    JWKS_COOLDOWN_SECONDS: '0',
    LOG_LEVEL: 'silent',
    // Buckets live in the shared Redis: each gateway under test counts on its own.
    REDIS_URL: redisUrl(),
    RATE_LIMIT_KEY_PREFIX: redisKeyPrefix('gateway'),
    // A starved event loop fires a command's timer before it reads the answer waiting in
    // the socket: on a loaded machine 1 s would send calls to the 1/N fallback at random.
    REDIS_TIMEOUT_MS: '10000',
    ...env,
  });
  const gateway = startGatewayService(config, testLogger('gateway'), overrides);
  const server = createServer(gateway.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const ops = createServer(gateway.opsApp.callback());
  await new Promise<void>((resolve) => ops.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    opsUrl: `http://127.0.0.1:${(ops.address() as AddressInfo).port}`,
    config,
    server,
    close: async () => {
      server.closeAllConnections();
      ops.closeAllConnections();
      await new Promise((resolve) => ops.close(resolve));
      await new Promise((resolve) => server.close(resolve));
      await gateway.close();
    },
  };
};
